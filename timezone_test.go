package vigil

import (
	"strings"
	"testing"
)

func TestCheckTimeZone(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"", true}, // the deployment's
		{"UTC", true},
		{"Asia/Tokyo", true},
		{"America/Argentina/Buenos_Aires", true},
		{"Local", false},
		{"Mars/Olympus_Mons", false},
		{"../../etc/passwd", false},
		{"+09:00", false},
		{strings.Repeat("A", 200), false},
		{"Etc/GMT+3", true},
		// IANA links to a canonical zone, in every zoneinfo and in
		// Go's own time/tzdata: users type them.
		{"GMT", true},
		{"US/Eastern", true},
		{"Japan", true},
		// Names that load only from some hosts' files, or name the host's
		// zone: refused, not stored to fail on another machine.
		{"localtime", false},
		{"posixrules", false},
		{"Factory", false},
		{"posix/Europe/Paris", false},
		{"right/Europe/Paris", false},
		{"Europe/", false},
		{"Etc/../localtime", false},
	} {
		err := CheckTimeZone("timeZone", tc.name)
		if tc.ok != (err == nil) {
			t.Errorf("%q: %v, want ok %v", tc.name, err, tc.ok)
			continue
		}
		if err != nil && (ErrorCode(err) != EINVALID || !strings.Contains(ErrorMessage(err), "timeZone")) {
			t.Errorf("%q: %v; want EINVALID naming timeZone", tc.name, err)
		}
	}
	u := &User{Email: "ada@example.com", TimeZone: "Nowhere/Else"}
	if ErrorCode(u.Validate()) != EINVALID {
		t.Errorf("a user in Nowhere/Else is valid")
	}
	s := &Sentinel{OwnerID: 1, Name: "a", Source: "x", Status: SentinelActive, TimeZone: "Nowhere/Else"}
	if ErrorCode(s.Validate()) != EINVALID {
		t.Errorf("a sentinel in Nowhere/Else is valid")
	}
}
