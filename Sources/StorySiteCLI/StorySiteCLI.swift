// The StorySiteCLI module; see ../../README.md and DESIGN notes.
