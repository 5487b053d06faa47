package monitor

import (
	"context"
	"time"

	"github.com/vigil-web/vigil"
)

// messageTime is how a message says a time to a person (a digest's
// subject, a change's time in its body, since when a page fails, a
// site's page failing crawls in a row in its record's note): in
// loc, the zone of the sentinel's owner as the message is written
// (job.location), named by the zone's abbreviation for the day said,
// "2026-12-02 16:04 JST" ("EDT" or "EST" in New York, as daylight
// saving time has it, which also tells apart the two 01:30 of the night
// it ends; "+04" for a zone without one). A nil loc is UTC. The times a
// message gives programs (Message.Since and Until, PageFailure.Since,
// the changes' DetectedAt: the webhook's JSON, a feed's updated) stay
// instants, in UTC.
func messageTime(t time.Time, loc *time.Location) string {
	if loc == nil {
		loc = time.UTC
	}
	return t.In(loc).Format("2006-01-02 15:04 MST")
}

// location returns the zone the plan's sentinel's lifespan runs in, its
// dates' (sentinelLocation), UTC if none was set. The messages, and the
// notes of a site's pages they carry, say their times in the owner's zone
// (job.location).
func (p *plan) location() *time.Location {
	if p.lifespan.Location == nil {
		return time.UTC
	}
	return p.lifespan.Location
}

// location returns the zone the job's messages say times in
// (messageTime): its owner's (ownerZone), read as the check began; UTC
// for a job given none.
func (j *job) location() *time.Location {
	if j.zone == nil {
		return time.UTC
	}
	return j.zone
}

// ownerZone returns the zone the messages of sentinel s, whose plan is
// p, say times in: its owner's as it is now (vigil.User.TimeZone), else
// the deployment's (Monitor.Location), else UTC, so that an owner who
// sets another zone reads the next messages of every sentinel in it, not
// in the zone each was saved in until it is edited. The language gives
// a sentinel no zone of its own: its dates are read in its owner's when
// it is saved, and its lifespan keeps running in that one (plan.location).
// An owner who cannot be read, or whose zone the zone database no longer
// knows, gets the sentinel's zone, and the log says why. zones holds the
// owners' zones read for a batch, by owner id.
func (m *Monitor) ownerZone(ctx context.Context, s *vigil.Sentinel, p *plan, zones map[int64]*time.Location) *time.Location {
	if loc, ok := zones[s.OwnerID]; ok {
		if loc == nil {
			return p.location()
		}
		return loc
	}
	var loc *time.Location
	u, err := m.Store.FindUserByID(ctx, s.OwnerID)
	if err == nil {
		loc, err = vigil.ZoneOr(u.TimeZone, m.Location)
	}
	if err != nil {
		m.Logger.Error("owner's time zone: messages in the sentinel's", LogSentinel, s.ID, "owner", s.OwnerID, LogError, err)
		loc = nil
	}
	zones[s.OwnerID] = loc
	if loc == nil {
		return p.location()
	}
	return loc
}
