// The StoryCrawl module; see ../../README.md and DESIGN notes.
