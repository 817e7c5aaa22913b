// A fake Storyblok Content Delivery API for tests.
