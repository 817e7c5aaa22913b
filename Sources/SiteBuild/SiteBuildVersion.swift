/// The storysite version: printed by `storysite --version`, and part of the build cache key, so a
/// new version never reuses pages an older one rendered.
public enum SiteBuildVersion {
    /// The version, as `storysite --version` prints it.
    public static let current = "0.2.0"
}
