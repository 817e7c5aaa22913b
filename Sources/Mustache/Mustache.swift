// The Mustache module; see ../../README.md and DESIGN notes.
