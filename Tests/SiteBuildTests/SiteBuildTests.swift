import Testing

/// The SiteBuild module's suite: page fingerprints and the release of a build's memory. Whole
/// builds are tested end to end, through the executable, in StorySiteCLITests.
@Suite("SiteBuild")
struct SiteBuildTests {}
