// The StoryRender module; see ../../README.md and DESIGN notes.
