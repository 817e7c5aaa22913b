import Foundation

/// Where a Storyblok space's Content Delivery API lives; each space belongs to one region.
public enum StoryblokRegion: String, Sendable, CaseIterable {
    case eu, us, ca, ap, cn

    /// The region's API base (`https://api.storyblok.com/v2/cdn` for `eu`).
    public var baseURL: URL {
        switch self {
        case .eu: return URL(string: "https://api.storyblok.com/v2/cdn")!
        case .us: return URL(string: "https://api-us.storyblok.com/v2/cdn")!
        case .ca: return URL(string: "https://api-ca.storyblok.com/v2/cdn")!
        case .ap: return URL(string: "https://api-ap.storyblok.com/v2/cdn")!
        case .cn: return URL(string: "https://app.storyblokchina.cn/v2/cdn")!
        }
    }
}
