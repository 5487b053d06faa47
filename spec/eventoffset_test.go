package spec

import (
	"testing"
	"time"
)

// TestEventOffsetDST: days and weeks added to an event of another
// sentinel keep the owner's clock (Checker.Location), as they do for a
// date, across a daylight-saving change. The event's instant comes from
// the store in UTC (its status, or its creation for From Now): start(s)
// at 09:00 in Paris on Saturday 28 March 2026 + 1 day is 09:00 in Paris
// on Sunday, 23 hours later; it was 24 hours later, 10:00 in Paris, the
// day counted on UTC's clock.
func TestEventOffsetDST(t *testing.T) {
	paris, newYork := dstZones(t)
	utc := utc2026
	for _, tc := range []struct {
		name string
		loc  *time.Location
		now  time.Time // the check's Now, in UTC as the server gives it
		base Stored    // the sentinel base, as stored (times in UTC)
		from string    // From and To of the new sentinel
		want time.Time // its resolved From or To, whichever has the event
		to   bool      // want is its To
	}{
		{"started, summer time begins", paris, utc(3, 28, 10, 0),
			Stored{Started: utc(3, 28, 8, 0)}, "From start(base) + 1 day To 05/01/2026", utc(3, 29, 7, 0), false},
		{"started, two days across", paris, utc(3, 28, 10, 0),
			Stored{Started: utc(3, 28, 8, 0)}, "From start(base) + 2 days To 05/01/2026", utc(3, 30, 7, 0), false},
		{"started, summer time ends", paris, utc(10, 24, 10, 0),
			Stored{Started: utc(10, 24, 7, 0)}, "From start(base) + 1 day To 12/01/2026", utc(10, 25, 8, 0), false},
		{"ended, + 2 weeks", paris, utc(3, 28, 10, 0),
			Stored{Started: utc(3, 1, 9, 0), Ended: utc(3, 20, 9, 0)}, "From Now To end(base) + 2 weeks", utc(4, 3, 8, 0), true},
		{"not started, From Now, estimated", paris, utc(3, 28, 10, 0),
			Stored{Checked: &Checked{Start: utc(3, 28, 8, 0)}}, "From start(base) + 1 day To 05/01/2026", utc(3, 29, 7, 0), false},
		{"started, New York spring", newYork, utc(3, 7, 15, 0),
			Stored{Started: utc(3, 7, 14, 0)}, "From start(base) + 1 day To 05/01/2026", utc(3, 8, 13, 0), false},
		{"started, New York autumn, + 1 week", newYork, utc(10, 31, 14, 0),
			Stored{Started: utc(10, 31, 13, 0)}, "From start(base) + 1 week To 12/01/2026", utc(11, 7, 14, 0), false},
		{"Now given in UTC", paris, utc(3, 28, 8, 0),
			Stored{Started: utc(3, 1, 8, 0)}, "From Now + 1 day To 05/01/2026", utc(3, 29, 7, 0), false},
		{"hours stay exact", paris, utc(3, 28, 10, 0),
			Stored{Started: utc(3, 28, 8, 0)}, "From start(base) + 24 hours To 05/01/2026", utc(3, 29, 8, 0), false},
		{"UTC owner: a day is 24 hours", time.UTC, utc(3, 28, 10, 0),
			Stored{Started: utc(3, 28, 8, 0)}, "From start(base) + 1 day To 05/01/2026", utc(3, 29, 8, 0), false},
	} {
		c := NewChecker(tc.now)
		c.Location = tc.loc
		base, err := NewChecker(utc(1, 1, 0, 0)).Check(mustParse(t, "Create Sentinel base Using http://base.example From Now To 12/31/2026").Sentinels[0])
		if err != nil {
			t.Fatal(err)
		}
		st := tc.base
		if st.Checked != nil { // the start base was stored with: its From Now, checked then
			base.Start = st.Start
		}
		st.Checked = base
		c.Add(&st)
		ch, err := c.Check(mustParse(t, "Create Sentinel a Using http://a.example "+tc.from).Sentinels[0])
		if err != nil {
			t.Errorf("%s: %s in %s: %v", tc.name, tc.from, tc.loc, err)
			continue
		}
		got := ch.Start
		if tc.to {
			got = ch.End
		}
		if !got.Equal(tc.want) {
			t.Errorf("%s: %s in %s: %s (%s), want %s (%s)", tc.name, tc.from, tc.loc,
				got.UTC(), got.In(tc.loc), tc.want, tc.want.In(tc.loc))
		}
	}
}
