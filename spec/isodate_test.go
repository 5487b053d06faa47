package spec

import "testing"

// TestDateWrittenOtherwise: a date in From or To written year first, as
// ISO 8601 does (2026-03-01, 2026/03/01, 2026-03-01T09:30), or month
// first with dashes, is told how to write it, MM/DD/YYYY, and, when the
// date does not exist, that its day or month is out of range, at the
// date; the clauses after it are read on. The parser said "expected date
// (MM/DD/YYYY), ..., found "2026-03-01"", or of 2026/03/01 "month out of
// range".
func TestDateWrittenOtherwise(t *testing.T) {
	tests := []struct {
		name, clause, want string
	}{{
		name:   "ISO in From",
		clause: "From 2026-03-01",
		want:   `f:2:6: invalid date 2026-03-01: year first; write 03/01/2026 for 2026-03-01 (MM/DD/YYYY)`,
	}, {
		name:   "ISO in To",
		clause: "To 2026-3-1",
		want:   `f:2:4: invalid date 2026-3-1: year first; write 03/01/2026 for 2026-3-1 (MM/DD/YYYY)`,
	}, {
		name:   "ISO with a time of day",
		clause: "To 2026-03-01T9:30",
		want:   `f:2:4: invalid date 2026-03-01T9:30: year first; write 03/01/2026 09:30 for 2026-03-01T9:30 (MM/DD/YYYY HH:MM)`,
	}, {
		name:   "ISO, the day out of range",
		clause: "From 2026-02-30",
		want:   `f:2:6: invalid date 2026-02-30: day out of range, February 2026 has 28 days; and year first: write the month first, MM/DD/YYYY (its last day is 02/28/2026)`,
	}, {
		name:   "ISO, the month out of range",
		clause: "From 2026-13-01",
		want:   `f:2:6: invalid date 2026-13-01: month out of range; and year first: write the month first, MM/DD/YYYY`,
	}, {
		name:   "year first with slashes",
		clause: "To 2026/03/01",
		want:   `f:2:4: invalid date 2026/03/01: year first; write 03/01/2026 for 2026/03/01 (MM/DD/YYYY)`,
	}, {
		name:   "month first with dashes",
		clause: "From 03-01-2026",
		want:   `f:2:6: invalid date 03-01-2026: write 03/01/2026, with slashes (MM/DD/YYYY)`,
	}, {
		name:   "month first with dashes, the day out of range",
		clause: "From 04-31-2026",
		want:   `f:2:6: invalid date 04-31-2026: day out of range, April 2026 has 30 days; and dashes: write slashes, MM/DD/YYYY (its last day is 04/30/2026)`,
	}, {
		name:   "a time of day out of range: not taken for a date",
		clause: "From 2026-03-01T24:00",
		want:   `f:2:6: expected date (MM/DD/YYYY), Now, start(name), end(name) or during(name), found "2026-03-01T24:00"`,
	}, {
		name:   "no day: not taken for a date",
		clause: "From 2026-03",
		want:   `f:2:6: expected date (MM/DD/YYYY), Now, start(name), end(name) or during(name), found "2026-03"`,
	}, {
		name:   "a time zone: not taken for a date",
		clause: "From 2026-03-01T09:30Z",
		want:   `f:2:6: expected date (MM/DD/YYYY), Now, start(name), end(name) or during(name), found "2026-03-01T09:30Z"`,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := "Create Sentinel s Using https://a.example/\n" + tc.clause + "\nEvery 0 hours\n"
			f, err := Parse("f", []byte(src))
			if err == nil {
				t.Fatal("Parse: no syntax error")
			}
			_, semantic := NewChecker(date(2003, 6, 1, 12, 0)).CheckFile(f)
			var list ErrorList
			if semantic != nil {
				list = semantic.(ErrorList)
			}
			want := tc.want + "\nf:3:7: Every 0 hours: interval must be greater than 0\n"
			if got := MergeErrors(err, list).String(); got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}
