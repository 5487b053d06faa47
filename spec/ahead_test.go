package spec

import "testing"

// TestCheckFileUsesLater: CheckFile tells a sentinel that uses one defined
// further on in the file, or refers to its events, where that one is and
// to define it first; it said "unknown sentinel b" with b on the next line.
// A name defined nowhere is still unknown, and one defined before is used.
func TestCheckFileUsesLater(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{{
		name: "using",
		src:  "Create Sentinel a Using b\nCreate Sentinel b Using https://b.example/\n",
		want: "f:1:25: sentinel b is defined after this one, at f:2:17: define it first (a sentinel uses only those defined before it)",
	}, {
		name: "event",
		src:  "Create Sentinel a Using https://a.example/ To end(b)\nCreate Sentinel b Using https://b.example/\n",
		want: "f:1:51: sentinel b is defined after this one, at f:2:17: define it first (a sentinel uses only those defined before it)",
	}, {
		name: "nowhere",
		src:  "Create Sentinel a Using b\n",
		want: "f:1:25: unknown sentinel b",
	}, {
		name: "before",
		src:  "Create Sentinel b Using https://b.example/\nCreate Sentinel a Using b\n",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Parse("f", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			_, err = NewChecker(date(2003, 6, 1, 12, 0)).CheckFile(f)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
