package monitor

import "time"

// messageTime is how a message says a time to a person (a digest's
// subject, a change's time in its body, since when a page fails, a
// site's page failing crawls in a row in its record's note): in
// loc, the zone the sentinel's dates were read in (plan.location), named
// by the zone's abbreviation for the day said, "2026-12-02 16:04 JST"
// ("EDT" or "EST" in New York, as daylight saving time has it, which
// also tells apart the two 01:30 of the night it ends; "+04" for a zone
// without one). A nil loc is UTC. The times a message gives programs
// (Message.Since and Until, PageFailure.Since, the changes' DetectedAt:
// the webhook's JSON, a feed's updated) stay instants, in UTC.
func messageTime(t time.Time, loc *time.Location) string {
	if loc == nil {
		loc = time.UTC
	}
	return t.In(loc).Format("2006-01-02 15:04 MST")
}

// location returns the zone the messages of the plan's sentinel say
// times in (messageTime): the one its lifespan runs in, its dates'
// (sentinelLocation), UTC if none was set.
func (p *plan) location() *time.Location {
	if p.lifespan.Location == nil {
		return time.UTC
	}
	return p.lifespan.Location
}
