// The StorySource module; see ../../README.md and DESIGN notes.
