package spec

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// Decomposed (NFD) text, as macOS keyboards and some copies write it: é
// as e and U+0301, the combining acute accent.
const (
	cafeNFD = "cafe\u0301"
	cafeNFC = "caf\u00e9"
)

// TestNameNFD: a sentinel name written decomposed is the name written
// composed: accepted, stored and printed in NFC, and found by a sentinel
// that writes it either way.
func TestNameNFD(t *testing.T) {
	c := NewChecker(date(2026, 1, 1, 0, 0))
	stored, err := c.Check(mustParse(t, "Create Sentinel "+cafeNFC+" Using http://a.example").Sentinels[0])
	if err != nil {
		t.Fatalf("NFC name: %v", err)
	}
	c.Add(&Stored{Checked: stored})

	for _, tc := range []struct {
		name, src string
		refs      []string // References of the parsed sentinel
		err       string   // the check's error, "" for none
	}{
		{"name", "Create Sentinel x" + cafeNFD + " Using http://b.example", nil, ""},
		{"Using", "Create Sentinel b Using " + cafeNFD, []string{cafeNFC}, ""},
		{"Using sentinel", "Create Sentinel b Using sentinel " + cafeNFD, []string{cafeNFC}, ""},
		{"event", "Create Sentinel b Using http://b.example To end(" + cafeNFD + ")", []string{cafeNFC}, ""},
		{"upper case", "Create Sentinel b Using CAFE\u0301", []string{"CAF\u00c9"}, ""},
		{"taken", "Create Sentinel " + cafeNFD + " Using http://b.example", nil, "sentinel name " + cafeNFC + " is taken"},
	} {
		s, err := ParseSentinel("", []byte(tc.src))
		if err != nil {
			t.Errorf("%s: parse: %v", tc.name, err)
			continue
		}
		if strings.Contains(s.Name.Name, "\u0301") {
			t.Errorf("%s: name %q, want it composed", tc.name, s.Name.Name)
		}
		if got := References(s); !reflect.DeepEqual(got, tc.refs) {
			t.Errorf("%s: References %q, want %q", tc.name, got, tc.refs)
		}
		ch, err := c.Check(s)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
		case err == nil && strings.Contains(Print(ch.Sentinel), "\u0301"):
			t.Errorf("%s: printed %q, want the name composed", tc.name, Print(ch.Sentinel))
		}
	}

	// The stored forms of the users of café, asked for it decomposed.
	data, err := json.Marshal(stored)
	if err != nil {
		t.Fatal(err)
	}
	user, err := c.Check(mustParse(t, "Create Sentinel b Using "+cafeNFC).Sentinels[0])
	if err != nil {
		t.Fatal(err)
	}
	userData, err := json.Marshal(user)
	if err != nil {
		t.Fatal(err)
	}
	if got := UsedBy(cafeNFD, [][]byte{data, userData}); !reflect.DeepEqual(got, []string{"b"}) {
		t.Errorf("UsedBy(%q) = %q, want [b]", cafeNFD, got)
	}
	if got := c.lookup(cafeNFD); got == nil || got.Sentinel.Name.Name != cafeNFC {
		t.Errorf("lookup(%q) = %v, want the stored %s", cafeNFD, got, cafeNFC)
	}
	if _, err := c.CheckReplace(cafeNFD, mustParse(t, "Create Sentinel "+cafeNFC+" Using http://c.example").Sentinels[0]); err != nil {
		t.Errorf("CheckReplace(%q) of itself: %v", cafeNFD, err)
	}
	if !sameName(cafeNFD, strings.ToUpper(cafeNFC)) || sameName(cafeNFD, "cafe") {
		t.Errorf("SameName: %q is %q, not cafe", cafeNFD, strings.ToUpper(cafeNFC))
	}
}

// TestNameNFDJSON: the JSON form's name is composed too.
func TestNameNFDJSON(t *testing.T) {
	s, err := DecodeSentinel([]byte(`{"name":"cafe\u0301","using":{"sentinel":"the\u0301"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Name.Name != cafeNFC {
		t.Errorf("name %q, want %q", s.Name.Name, cafeNFC)
	}
	if got := References(s); !reflect.DeepEqual(got, []string{"th\u00e9"}) {
		t.Errorf("References %q, want [thé]", got)
	}
}

// TestNameUncomposableMark: a combining mark that composes with nothing
// before it (x and an acute accent) is still refused, and told so.
func TestNameUncomposableMark(t *testing.T) {
	for src, want := range map[string]string{
		"Create Sentinel x\u0301 Using http://a.example":           "1:17: invalid sentinel name \"x\u0301\": U+0301 (a combining mark) at column 18 makes no one character with the letter before it",
		"Create Sentinel cafe\u0301x\u0301 Using http://a.example": "U+0301 (a combining mark) at column 23 makes no one character",
	} {
		_, err := NewChecker(date(2026, 1, 1, 0, 0)).CheckFile(mustParse(t, src))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", src, err, want)
		}
	}
}
