import Testing
import StoryModel

extension StoryModelTests {
    @Suite("Story dates")
    struct StoryDateTests {
        @Test("each form of Storyblok date becomes an RFC 3339 UTC timestamp")
        func dateForms() {
            #expect(StoryDate("2018-04-13T17:38:33.638Z")?.rfc3339 == "2018-04-13T17:38:33Z")
            #expect(StoryDate("2024-03-30 08:00")?.rfc3339 == "2024-03-30T08:00:00Z")
            #expect(StoryDate("2024-03-30T08:00:00+02:00")?.rfc3339 == "2024-03-30T06:00:00Z")
            #expect(StoryDate("2024-03-30T23:30:00-01:00")?.rfc3339 == "2024-03-31T00:30:00Z")
            #expect(StoryDate("2024-03-01T00:30:00+01:00")?.rfc3339 == "2024-02-29T23:30:00Z")
            #expect(StoryDate("2024-03-30")?.rfc3339 == "2024-03-30T00:00:00Z")
            #expect(StoryDate("2024-03-30T08:00:00Z")?.rfc3339 == "2024-03-30T08:00:00Z")
            #expect(StoryDate("1970-01-01 00:00")?.rfc3339 == "1970-01-01T00:00:00Z")
            #expect(StoryDate("1969-12-31T23:59:59Z")?.rfc3339 == "1969-12-31T23:59:59Z")
        }

        @Test("text that is not such a date gives nil")
        func unparseableDates() {
            for text in ["", "yesterday", "2024-3-30", "2024-02-30", "2023-02-29", "2024-13-01", "2024-03-30T25:00",
                         "2024-03-30 08", "2024-03-30T08:00:61Z", "2024-03-30T08:00:00.Z", "2024-03-30T08:00+2",
                         "2024-03-30T08:00:00Z trailing", "0000-01-01T00:00+01:00"] {
                #expect(StoryDate(text)?.rfc3339 == nil, "\(text)")
            }
        }

        @Test("both of Storyblok's forms of one time are the same instant")
        func sameInstant() {
            #expect(StoryDate("2024-03-30 08:00") == StoryDate("2024-03-30T08:00:00.000Z"))
            #expect(StoryDate("2024-03-30 08:00")! < StoryDate("2024-03-30T08:00:01Z")!)
        }
    }
}
