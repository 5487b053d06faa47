package web

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/vigil-web/vigil"
)

// Time zones. The dates written in a sentinel (From 12/24/2026 09:00, and
// the clock that days, weeks and months added keep) are read in its
// owner's zone (vigil.User.TimeZone), or the deployment's
// (Server.Location, vigil serve --tz) for an owner who set none. A saved
// sentinel keeps the zone its dates were read in (vigil.Sentinel.TimeZone),
// which the monitor runs it in: a later change of the owner's zone moves
// it only when it is edited again, and the edit reads it in the new one.

// timeZoneField is the field a diagnostic about a user's time zone is on,
// the member of PATCH /api/v1/me and of the dashboard's form.
const timeZoneField = "timeZone"

// location returns the deployment's time zone (Server.Location), UTC when
// none is set.
func (s *Server) location() *time.Location {
	if s.Location != nil {
		return s.Location
	}
	return time.UTC
}

// userLocation returns the zone the dates u writes are read in: u's own
// (own true), or the deployment's when u has none, or has one the zone
// database no longer knows.
func (s *Server) userLocation(u *vigil.User) (loc *time.Location, own bool) {
	if u != nil && u.TimeZone != "" {
		if loc, err := vigil.LoadTimeZone(u.TimeZone); err == nil {
			return loc, true
		}
	}
	return s.location(), false
}

// displayLocation returns the zone the dashboard shows u times in
// (fmtTime): the one the dates u writes are read in (userLocation), the
// deployment's for no user.
func (s *Server) displayLocation(u *vigil.User) *time.Location {
	loc, _ := s.userLocation(u)
	return loc
}

// zoneName names the zone the dates u writes are read in
// (userLocation), as the editor says it.
func (s *Server) zoneName(u *vigil.User) string {
	loc, _ := s.userLocation(u)
	return loc.String()
}

// sentinelLocation returns the zone the dates of a saved sentinel were
// read in (vigil.Sentinel.TimeZone), the deployment's for one saved
// before sentinels kept theirs.
func (s *Server) sentinelLocation(sen *vigil.Sentinel) *time.Location {
	if loc, err := vigil.ZoneOr(sen.TimeZone, s.location()); err == nil {
		return loc
	}
	return s.location()
}

// setTimeZone sets u's time zone to zone, an IANA name, or "" for the
// deployment's, in the store and in u. A name the zone database does not
// know is EINVALID with a diagnostic on timeZoneField.
func (s *Server) setTimeZone(ctx context.Context, u *vigil.User, zone string) error {
	zone = strings.TrimSpace(zone)
	if err := vigil.CheckTimeZone(timeZoneField, zone); err != nil {
		return fieldError(timeZoneField, vigil.ErrorMessage(err))
	}
	if err := s.Store.SetUserTimeZone(ctx, u.ID, zone); err != nil {
		return err
	}
	u.TimeZone = zone
	return nil
}

// me is the answer of GET and PATCH /api/v1/me: the user, with their own
// time zone as timeZone ("" for the deployment's, as PATCH takes it: the
// timeZone GET answers, sent back alone, changes nothing), and the zone
// the dates of the sentinels they save are read in. PATCH takes timeZone
// alone; the other members are read-only.
type me struct {
	*vigil.User
	// EffectiveTimeZone is the zone in effect: the user's own or, when
	// they have none (or one the zone database no longer knows), the
	// deployment's.
	EffectiveTimeZone string `json:"effectiveTimeZone"`
	// DeploymentTimeZone is the deployment's zone (vigil serve --tz),
	// the one a user without their own has.
	DeploymentTimeZone string `json:"deploymentTimeZone"`
}

func (s *Server) meOf(u *vigil.User) me {
	loc, _ := s.userLocation(u)
	return me{User: u, EffectiveTimeZone: loc.String(), DeploymentTimeZone: s.location().String()}
}

func (s *Server) handleMe(w http.ResponseWriter, r *http.Request, u *vigil.User) error {
	writeJSON(w, http.StatusOK, s.meOf(u))
	return nil
}

// handleMeUpdate is PATCH /api/v1/me: it sets the members given, of which
// there is one, timeZone (an IANA name, or "" for the deployment's).
func (s *Server) handleMeUpdate(w http.ResponseWriter, r *http.Request, u *vigil.User) error {
	var in struct {
		TimeZone *string `json:"timeZone"`
	}
	if err := readJSON(r, &in); err != nil {
		return err
	}
	if in.TimeZone == nil {
		return fieldError(timeZoneField, `timeZone required: an IANA name such as Asia/Tokyo, or "" for the deployment's zone`)
	}
	if err := s.setTimeZone(r.Context(), u, *in.TimeZone); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.meOf(u))
	return nil
}

// handleTimeZonePage is the dashboard's form of the user's time zone, on
// the tokens page (their settings): an IANA name, or empty for the
// deployment's.
func (s *Server) handleTimeZonePage(w http.ResponseWriter, r *http.Request, sess *session) error {
	if err := s.setTimeZone(r.Context(), sess.User, r.PostFormValue(timeZoneField)); err != nil {
		return err
	}
	return s.seeOtherDone(w, r, "/tokens", "zone")
}
