// The StoryModel module; see ../../README.md and DESIGN notes.
