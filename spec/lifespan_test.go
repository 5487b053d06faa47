package spec

import (
	"strings"
	"testing"
	"time"
)

// TestLifespanMessages: the time-lapse rules name the clause (From, To),
// point at its time point, say why in plain words and what to write.
func TestLifespanMessages(t *testing.T) {
	now := time.Date(2003, 6, 1, 12, 0, 0, 0, time.UTC)
	const head = "Create Sentinel s Using http://a.example\n"
	for name, tc := range map[string]struct{ src, want string }{
		"From a date passed": {head + "\tFrom 01/01/2003",
			"2:7: From 01/01/2003 has passed (01/01/2003 00:00 UTC is before now, 06/01/2003 12:00 UTC): write a later time, or From Now to start at once"},
		"To a date passed": {head + "\tTo 11/01/2002",
			"2:5: To 11/01/2002 has passed (11/01/2002 00:00 UTC is before now, 06/01/2003 12:00 UTC): write a later time, such as To Now + 1 month"},
		"From a date and offset passed": {head + "\tFrom 01/01/2003 + 2 days",
			"2:7: From 01/01/2003 + 2 days has passed (01/03/2003 00:00 UTC is before now, 06/01/2003 12:00 UTC): write a later time, or From Now to start at once"},
		"To before From": {head + "\tFrom Now + 2 months\n\tTo Now + 1 month",
			"3:5: To Now + 1 month is not after From Now + 2 months: the sentinel would end at 07/01/2003 12:00 UTC and start at 08/01/2003 12:00 UTC; write a To later than the From"},
		"To the From": {head + "\tFrom 12/01/2003 To 12/01/2003",
			"2:21: To 12/01/2003 is not after From 12/01/2003: the sentinel would end at 12/01/2003 00:00 UTC and start at 12/01/2003 00:00 UTC; write a To later than the From"},
		"To Now": {head + "\tFrom Now\n\tTo Now",
			"3:5: To Now would end the sentinel as soon as it starts: write To Now + a duration (To Now + 1 month), a later date, or no To for the default lifespan"},
		"To after the year 9999": {head + "\tTo 12/31/9999 + 1 day",
			"2:5: To 12/31/9999 + 1 day is after the year 9999 (01/01/10000 00:00 UTC), the last Vigil keeps: write an earlier time"},
		"From after the year 9999": {head + "\tFrom 12/01/9999 + 2 months\n\tTo 12/31/9999",
			"2:7: From 12/01/9999 + 2 months is after the year 9999 (02/01/10000 00:00 UTC), the last Vigil keeps: write an earlier time"},
		"default To after the year 9999": {head + "\tFrom 06/01/9999",
			"2:7: From 06/01/9999 leaves no room for the default lifespan of 12 months, which would end after the year 9999 (06/01/10000 00:00 UTC), the last Vigil keeps: write a To before it"},
		"inherited": {"Create Sentinel p Using http://a.example From 07/01/2003\nCreate Sentinel s Using p Monitor all links",
			"2:25: inherited from p: From 07/01/2003 has passed (07/01/2003 00:00 UTC is before now, 08/01/2003 12:00 UTC): write a later time, or From Now to start at once"},
	} {
		t.Run(name, func(t *testing.T) {
			f, err := Parse("f.ssl", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			c := NewChecker(now)
			var got []string
			for i, s := range f.Sentinels {
				if i > 0 {
					c.Now = now.AddDate(0, 2, 0) // the parent's From has passed since
				}
				ch, err := c.Check(s)
				if err != nil {
					for _, e := range err.(ErrorList) {
						got = append(got, e.Error())
					}
					continue
				}
				c.Add(&Stored{Checked: ch})
			}
			if len(got) != 1 || got[0] != tc.want {
				t.Errorf("errors:\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

// TestLifespanEventMessages: an event that has happened, whose time point
// has passed, is reported at the event.
func TestLifespanEventMessages(t *testing.T) {
	now := time.Date(2003, 6, 1, 12, 0, 0, 0, time.UTC)
	c := NewChecker(now)
	s1 := mustParse(t, "Create Sentinel s1 Using http://a.example From Now To Now + 30 days").Sentinels[0]
	ch, err := c.Check(s1)
	if err != nil {
		t.Fatal(err)
	}
	c.Add(&Stored{Checked: ch, Started: now.Add(-time.Hour)})
	for name, tc := range map[string]struct{ src, want string }{
		"From start": {"Create Sentinel s2 Using http://b.example From start(s1)",
			"1:48: From start(s1) has passed (start(s1) is 06/01/2003 11:00 UTC, not after now, 06/01/2003 12:00 UTC): write a later time, or From Now to start at once"},
		"From start + offset": {"Create Sentinel s2 Using http://b.example\n\tFrom start(s1) + 1 hour",
			"2:7: From start(s1) + 1 hour has passed (start(s1) + 1 hour is 06/01/2003 12:00 UTC, not after now, 06/01/2003 12:00 UTC): write a later time, or From Now to start at once"},
		"To start": {"Create Sentinel s2 Using http://b.example\n\tTo start(s1)",
			"2:5: To start(s1) has passed (start(s1) is 06/01/2003 11:00 UTC, not after now, 06/01/2003 12:00 UTC): write a later time, such as To Now + 1 month"},
	} {
		t.Run(name, func(t *testing.T) {
			s, err := ParseSentinel("", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.Check(s); err == nil || err.Error() != tc.want {
				t.Errorf("error:\n%v\nwant\n%s", err, tc.want)
			}
		})
	}
}

// TestDuringStoredStartedThisMinute: a stored sentinel created From Now,
// not yet run, seconds after the minute a check reads as now (the CLI's
// check takes now to the minute) has started: during() of it is
// accepted, where it was refused as "it starts" at that very minute. One
// that starts in a later minute is refused, saying when.
func TestDuringStoredStartedThisMinute(t *testing.T) {
	now := time.Date(2003, 6, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name    string
		created time.Time
		from    string
		want    string
	}{
		{"created this minute", now.Add(36 * time.Second), "From Now", ""},
		{"created before", now.Add(-time.Hour), "From Now", ""},
		{"starts next minute", now.Add(36 * time.Second), "From Now + 1 minute",
			"3:7: start event is invalid: during(p) needs p to be active, but it has not started: it starts 06/01/2003 12:01 UTC; write From start(p) to start with it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Parse("f.ssl", []byte("Create Sentinel p Using http://a.example "+tc.from+"\nCreate Sentinel s Using http://b.example\n\tFrom during(p)"))
			if err != nil {
				t.Fatal(err)
			}
			parent, err := NewChecker(tc.created).Check(f.Sentinels[0])
			if err != nil {
				t.Fatal(err)
			}
			c := NewChecker(now)
			c.Add(&Stored{Checked: parent})
			var got string
			if _, err := c.Check(f.Sentinels[1]); err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestRecheckFollowsEndOf: a sentinel whose From is end(base), checked
// again (RecheckStored) after an edit of base that moves its end, starts
// at base's new end, not at the end it was checked with; an end moved
// past its To makes it invalid. Before, its From was kept as resolved
// when it was stored, since its text had not changed.
func TestRecheckFollowsEndOf(t *testing.T) {
	now := date(2026, 12, 1, 0, 0)
	stored := func(c *Checker, src string) {
		t.Helper()
		ch, err := c.Check(mustParse(t, src).Sentinels[0])
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		js, err := ch.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		var back Checked
		if err := back.UnmarshalJSON(js); err != nil {
			t.Fatal(err)
		}
		c.Add(&Stored{Checked: &back})
	}
	const kid = "Create Sentinel kid Using http://b.example From end(base) To 06/01/2027"
	for name, tc := range map[string]struct {
		edit, want string
		start      time.Time
	}{
		"end moved earlier": {edit: "To 02/01/2027", start: date(2027, 2, 1, 0, 0)},
		"end moved later":   {edit: "To 04/01/2027", start: date(2027, 4, 1, 0, 0)},
		"end moved past To": {edit: "To 09/01/2027", want: "To 06/01/2027 is not after From end(base)"},
	} {
		t.Run(name, func(t *testing.T) {
			c := NewChecker(now)
			stored(c, "Create Sentinel base Using http://a.example To 03/01/2027")
			stored(c, kid)
			edited, err := c.CheckReplace("base", mustParse(t, "Create Sentinel base Using http://a.example "+tc.edit).Sentinels[0])
			if err != nil {
				t.Fatal(err)
			}
			c.Add(&Stored{Checked: edited})
			ch, err := c.RecheckStored("kid", mustParse(t, kid).Sentinels[0])
			switch {
			case tc.want != "":
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("kid checked again: %v, start %v; want an error saying %q", err, ch, tc.want)
				}
			case err != nil:
				t.Errorf("kid checked again: %v", err)
			case !ch.Start.Equal(tc.start):
				t.Errorf("kid checked again starts %v, want base's new end %v", ch.Start, tc.start)
			}
		})
	}
}
