package spec

import "testing"

// TestDurationString: the canonical form writes the unit as English does,
// singular for one and plural otherwise; ParseDuration and the parser take
// both, so the seed's "2 day" still reads.
func TestDurationString(t *testing.T) {
	tests := []struct {
		d    Duration
		want string
	}{
		{Duration{1, Hour}, "1 hour"},
		{Duration{2, Hour}, "2 hours"},
		{Duration{30, Second}, "30 seconds"},
		{Duration{1, Second}, "1 second"},
		{Duration{0, Minute}, "0 minutes"},
		{Duration{-1, Day}, "-1 day"},
		{Duration{12, Month}, "12 months"},
		{Duration{3, Week}, "3 weeks"},
	}
	for _, tt := range tests {
		if got := tt.d.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.d, got, tt.want)
		}
		for _, in := range []string{tt.want, "1 " + tt.d.Unit.String(), "2 " + tt.d.Unit.String() + "s"} {
			if _, err := ParseDuration(in); err != nil {
				t.Errorf("ParseDuration(%q): %v", in, err)
			}
		}
	}
}

// TestFormatDurations: every clause that holds a duration formats it in
// plural English, whichever form the source used.
func TestFormatDurations(t *testing.T) {
	src := "Create Sentinel s Using http://a.example Fetch 2 hour Confirm after 1 minutes " +
		"From Now + 1 days To Now + 3 week Every 2 HOUR\n"
	want := "Create Sentinel s Using http://a.example\n" +
		"\tFetch 2 hours\n" +
		"\tConfirm after 1 minute\n" +
		"\tFrom Now + 1 day To Now + 3 weeks\n" +
		"\tEvery 2 hours\n"
	got, err := Format("d.ssl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("Format:\n%s\nwant:\n%s", got, want)
	}
}
