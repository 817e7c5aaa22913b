import StoryCrawl
import StoryModel

/// Checks the story links of a crawled space before anything is rendered: references that
/// resolve to no story are broken; story links whose saved slug (`cached_url`) is out of date
/// still work by UUID and are warnings; stories no entry reaches are warnings when asked for.
/// Anchors of story links are checked on the rendered pages, by ``HTMLFolderCheck``.
public enum ContentLinkCheck {
    /// The findings, in the graph's order: by source story (breadth-first), then in document
    /// order; orphans last. A reference this graph does not know but one of `otherLanguages`
    /// does (a language with no version of the target, in a space translated folder by
    /// folder) is a warning: the link leads to the other language's page.
    public static func findings(in graph: LinkGraph, includeOrphans: Bool, otherLanguages: [LinkGraph] = []) -> [Finding] {
        var findings: [Finding] = []
        // Most edges are fine: what a finding shows is worked out only for the others.
        func finding(_ edge: LinkGraph.Edge, _ severity: Finding.Severity, _ reason: String) -> Finding {
            Finding(
                severity: severity, source: graph.story(uuid: edge.source)?.fullSlug ?? edge.source,
                location: .field(edge.fieldPath), target: edge.reference.description + (edge.anchor.map { "#\($0)" } ?? ""),
                reason: reason)
        }
        let edges = graph.edges
        for index in edges.indices where graph.isUnresolvedEdge(at: index) || graph.isStaleEdge(at: index) {
            let edge = edges[index]
            if edge.target == nil {
                if let elsewhere = otherLanguages.lazy.compactMap({ $0.story(for: edge.reference) }).first {
                    findings.append(finding(edge, .warning, "no version in this language: leads to '\(elsewhere.fullSlug)'"))
                } else {
                    findings.append(finding(edge, .broken, unresolvedReason(edge)))
                }
            } else if let cachedURL = edge.cachedURL, let target = edge.target.flatMap(graph.story(uuid:)) {
                findings.append(finding(edge, .warning, "target renamed: cached_url '\(cachedURL)' is now '\(target.fullSlug)'"))
            }
        }
        if includeOrphans {
            for orphan in graph.orphans {
                findings.append(Finding(
                    severity: .warning, source: orphan.fullSlug, location: nil, target: orphan.fullSlug,
                    reason: "orphan: no entry story links to it, directly or through others"))
            }
        }
        return findings
    }

    /// The findings with what was checked: the graph's stories and the story references their
    /// content makes (folder listings are the site's navigation, not links an editor wrote).
    public static func report(for graph: LinkGraph, includeOrphans: Bool, otherLanguages: [LinkGraph] = []) -> CheckReport {
        CheckReport(
            findings: findings(in: graph, includeOrphans: includeOrphans, otherLanguages: otherLanguages),
            stories: graph.stories.count, links: graph.edges.indices.count { graph.kind(ofEdge: $0) != .listing })
    }

    private static func unresolvedReason(_ edge: LinkGraph.Edge) -> String {
        let alsoTried = edge.cachedURL.map { " (nor its cached_url '\($0)')" } ?? ""
        switch edge.reference {
        case .uuid: return "no story has this UUID\(alsoTried)"
        case .id: return "no story has this id\(alsoTried)"
        case .slug: return "no story has this slug"
        }
    }
}
