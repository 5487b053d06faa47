package spec

import (
	"strings"
	"testing"
	"time"
)

// TestHidePassword holds hidePassword to the cases of vigil.RedactURL's
// table test (redact_test.go at the root), whose rule it copies: the
// library may not import the domain.
func TestHidePassword(t *testing.T) {
	tests := map[string]struct{ in, want string }{
		"no user info":       {in: "http://a.example/x?q=1", want: "http://a.example/x?q=1"},
		"password":           {in: "http://user:s3cret@a.example/x", want: "http://user:xxxxx@a.example/x"},
		"empty password":     {in: "http://user:@a.example/", want: "http://user:xxxxx@a.example/"},
		"user only kept":     {in: "https://user@a.example/", want: "https://user@a.example/"},
		"at in password":     {in: "http://user:p@ss@a.example/", want: "http://user:xxxxx@a.example/"},
		"at in path":         {in: "http://a.example/@user:x", want: "http://a.example/@user:x"},
		"at in query":        {in: "http://a.example/?u=a:b@c", want: "http://a.example/?u=a:b@c"},
		"rest kept as is":    {in: "HTTP://User:S3cret@A.example:80/%7e#f", want: "HTTP://User:xxxxx@A.example:80/%7e#f"},
		"does not parse":     {in: "http://user:s3cret@a.example:x/%zz", want: "http://user:xxxxx@a.example:x/%zz"},
		"no scheme":          {in: "user:s3cret@a.example/docs", want: "user:xxxxx@a.example/docs"},
		"relative to scheme": {in: "//user:s3cret@a.example/", want: "//user:xxxxx@a.example/"},
		"spaces around":      {in: "  http://u:s3cret@a.example/ ", want: "  http://u:xxxxx@a.example/ "},
		"other scheme":       {in: "ftp://u:s3cret@a.example/", want: "ftp://u:xxxxx@a.example/"},
		"empty":              {in: "", want: ""},
		"not a url":          {in: "hello", want: "hello"},
		// Without "://", what stands before an "@" may be user
		// information with no scheme before it ("user:pass@host/"):
		// hidden, at the cost of an address's local part.
		"no authority":        {in: "mailto:a@example.com", want: "mailto:xxxxx@example.com"},
		"password at the end": {in: "http://u:s3cret@", want: "http://u:xxxxx@"},
	}
	for name, tc := range tests {
		if got := hidePassword(tc.in); got != tc.want {
			t.Errorf("%s: hidePassword(%q) = %q, want %q", name, tc.in, got, tc.want)
		}
	}
}

// TestContactErrorsHidePassword: a webhook's or a chat service's URL that
// is refused is named with its password as xxxxx; a chat URL was quoted
// as written.
func TestContactErrorsHidePassword(t *testing.T) {
	for _, tt := range []struct {
		kind    ContactKind
		address string
	}{
		{Webhook, "ftp://user:s3cret@a.example/"},
		{Webhook, "http://user:s3cret@a.example:99999/"},
		{Chat, "ntfyy://user:s3cret@a.example/topic"},
		{Chat, "ntfy://user:s3cret@a.example:x/topic"},
	} {
		err := ValidateContact(tt.kind, tt.address)
		if err == nil || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "user:xxxxx@") {
			t.Errorf("ValidateContact(%s): %v; want an error naming it with its password hidden", tt.address, err)
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
