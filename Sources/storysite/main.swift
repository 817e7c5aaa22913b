print("storysite")
