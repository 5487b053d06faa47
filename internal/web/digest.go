package web

import (
	"context"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/spec"
)

// sendsDigests reports whether a sentinel's checked form sends digests:
// its Every is an interval (spec.Periodic), whoever it notifies.
func sendsDigests(c *spec.Checked) bool {
	return c != nil && c.Sentinel != nil && c.Sentinel.Every != nil && c.Sentinel.Every.Mode == spec.Periodic
}

// nextDigest returns whether sentinel sen, of checked form c and state
// st, sends digests now, and when its next one goes out: the end of the
// period the monitor opened (SentinelState.NextDigest), zero before its
// first check in the mode. A paused sentinel sends none until resumed, an
// ended one none more (the monitor sent its open period's at the end),
// and one edited to another mode sends its open period's at its next
// check, no digest after.
func nextDigest(sen *vigil.Sentinel, c *spec.Checked, st SentinelState) (bool, time.Time) {
	if sen.Status != vigil.SentinelActive || st.Lifespan == "ended" || !sendsDigests(c) {
		return false, time.Time{}
	}
	if st.NextDigest.IsZero() {
		return true, time.Time{}
	}
	return true, st.NextDigest.UTC() // as the API writes every time
}

// digestRow is a sentinel of the Notifications page's list of the next
// digests: its next digest, zero before its first period opens and when
// DigestUnknown says the monitor's states could not be read.
type digestRow struct {
	ID            int64
	Name          string
	NextDigest    time.Time
	DigestUnknown bool
}

// nextDigests returns the sentinels of u that send digests now, with
// when each sends its next (nextDigest), by id, the states of those
// read at once. Without the states (Server.SentinelStates nil, or
// failing) the list is still right, only without the times: not known
// now, for states that could not be read.
func (s *Server) nextDigests(ctx context.Context, u *vigil.User) ([]*digestRow, error) {
	sens, _, err := s.Store.FindSentinels(ctx, vigil.SentinelFilter{OwnerID: u.ID, Status: vigil.SentinelActive})
	if err != nil {
		return nil, err
	}
	var digests []*vigil.Sentinel
	checked := map[int64]*spec.Checked{}
	for _, sen := range sens {
		if c := storedChecked(sen); sendsDigests(c) {
			digests = append(digests, sen)
			checked[sen.ID] = c
		}
	}
	var states map[int64]SentinelState
	unread := false
	if s.SentinelStates != nil && len(digests) > 0 {
		if states, err = s.SentinelStates(ctx, digests); err != nil {
			s.logger().Warn("read the sentinels' states", "error", err)
			unread = true
		}
	}
	var out []*digestRow
	for _, sen := range digests {
		if ok, next := nextDigest(sen, checked[sen.ID], states[sen.ID]); ok {
			out = append(out, &digestRow{ID: sen.ID, Name: sen.Name, NextDigest: next, DigestUnknown: unread})
		}
	}
	return out, nil
}
