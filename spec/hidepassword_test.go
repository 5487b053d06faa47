package spec

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
)

// TestHidePassword holds hidePassword to the table of vigil.RedactURL's
// test (testdata/redacturl.json at the root), whose rule it copies: the
// library may not import the domain, and the one table keeps the copies
// from drifting apart.
func TestHidePassword(t *testing.T) {
	const path = "../testdata/redacturl.json"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct{ Name, In, Want string }
	if err := json.Unmarshal(data, &cases); err != nil || len(cases) == 0 {
		t.Fatalf("%s: %d cases, %v", path, len(cases), err)
	}
	for _, tc := range cases {
		if got := hidePassword(tc.In); got != tc.Want {
			t.Errorf("%s: hidePassword(%q) = %q, want %q", tc.Name, tc.In, got, tc.Want)
		}
	}
}

// TestContactErrorsHidePassword: a webhook's or a chat service's URL that
// is refused is named with its password as xxxxx, and so is a URL given
// as an email address; a chat URL, and such an email address, were
// quoted as written.
func TestContactErrorsHidePassword(t *testing.T) {
	for _, tt := range []struct {
		kind    ContactKind
		address string
	}{
		{Webhook, "ftp://user:s3cret@a.example/"},
		{Webhook, "http://user:s3cret@a.example:99999/"},
		{Chat, "ntfyy://user:s3cret@a.example/topic"},
		{Chat, "ntfy://user:s3cret@a.example:x/topic"},
		// A URL given as an email address.
		{Email, "https://user:s3cret@h.example/x"},
		{Email, "user:s3cret@h"},
		{Email, `"https://user:s3cret@h.example"@x.example`},
		{Email, "a@b.example (https://user:s3cret@h.example/)"},
	} {
		err := ValidateContact(tt.kind, tt.address)
		if err == nil || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "user:xxxxx@") {
			t.Errorf("ValidateContact(%s): %v; want an error naming it with its password hidden", tt.address, err)
		}
	}
}

// TestEmailErrorsQuoteAddress: an email address refused for its form
// alone (a quoted local part, which a plain address does not write; a
// domain with no dot) is named as written, with nothing taken for a
// password: a colon in a quoted local part is no URL's. It was named as
// "\"x:xxxxx@example.com", its closing quote gone.
func TestEmailErrorsQuoteAddress(t *testing.T) {
	for _, address := range []string{
		`"x:y"@example.com`,
		`"x:y"@localhost`,
		`"a@b:c"@example.com`,
		`<"x:y"@example.com>`,
	} {
		err := ValidateContact(Email, address)
		if err == nil || !strings.Contains(err.Error(), quote(address)) {
			t.Errorf("ValidateContact(%s): %v; want an error naming it as written", address, err)
		}
	}
}

// TestDuplicateContactHidesPassword: a webhook given twice is reported
// with its password as xxxxx; it was named as written.
func TestDuplicateContactHidesPassword(t *testing.T) {
	src := "Create Sentinel y Using http://a.example/\nNotify By webhook https://user:s3cret@h.example/x, webhook https://user:s3cret@h.example/x"
	s, err := ParseSentinel("", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewChecker(time.Now()).Check(s)
	if err == nil || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "duplicate contact https://user:xxxxx@h.example/x") {
		t.Errorf("Check: %v; want the duplicate named with its password hidden", err)
	}
}

// TestUnparsedURLErrorsHidePassword: a page's or a webhook's URL that
// does not parse for its password (a "/", "#" or "%" in it unescaped) is
// refused without url.Parse's detail, which quoted the password up to
// that character (`invalid port ":s3" after host`).
func TestUnparsedURLErrorsHidePassword(t *testing.T) {
	for _, in := range []string{
		"https://user:s3#cret@a.example/",
		"http://user:s3/cret@a.example/x",
		"http://user:s3?cret@a.example/",
		"http://user:s3%zzcret@a.example/",
	} {
		_, err := NormalizeURL(in)
		if err == nil || strings.Contains(err.Error(), "s3") || !strings.Contains(err.Error(), "user:xxxxx@") {
			t.Errorf("NormalizeURL(%s): %v; want an error naming it with its password hidden", in, err)
		}
		err = ValidateContact(Webhook, in)
		if err == nil || strings.Contains(err.Error(), "s3") || !strings.Contains(err.Error(), "user:xxxxx@") {
			t.Errorf("ValidateContact(%s): %v; want an error naming it with its password hidden", in, err)
		}
	}
}
