package spec

import (
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
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

// TestChatErrorsHideSecrets: a chat URL is named in the checker's and
// the parser's messages with all its secrets hidden, as the chat
// notifier's refusals name it (ShownChatURL): its user information, its
// path's segments, a token= value, its fragment; one that does not parse
// as its scheme and ***. They hid a password alone, and quoted a Discord
// token, a Gotify or Mattermost token in the path or a ?token= value.
func TestChatErrorsHideSecrets(t *testing.T) {
	for _, tc := range []struct{ address, want string }{
		{"discord://SeCrEt@123/%zz", `invalid discord URL "discord://***"`},
		{"gotify://h.example/SeCrEt%zz", `invalid gotify URL "gotify://***"`},
		{"mattermost://h.example/SeCrEt/%zz", `invalid mattermost URL "mattermost://***"`},
		{"ntfy://h.example/t%zz?token=SeCrEt", `invalid ntfy URL "ntfy://***"`},
		{"ntfy://user:SeCrEt@a.example:x/topic", `invalid ntfy URL "ntfy://***"`},
		{"ntfyy://user:SeCrEt@a.example/topic?token=SeCrEt", `invalid chat URL "ntfyy://***@a.example/***?token=***": want slack://`},
		{"x?token=SeCrEt#%zz:", `invalid chat URL "***": want slack://`},
	} {
		err := ValidateContact(Chat, tc.address)
		if err == nil || strings.Contains(err.Error(), "SeCrEt") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ValidateContact(%s): %v; want it to say %s", tc.address, err, tc.want)
		}
	}
	for _, tc := range []struct{ src, want string }{
		{"Notify By discord://SeCrEt@123/raw, discord://SeCrEt@123/raw", "duplicate contact discord://***@123/***"},
		{"Notify discord://SeCrEt@123", `found "discord://***@123": write Notify By discord://***@123`},
		{`Notify "gotify://h.example/SeCrEt"`, `found "gotify://h.example/***": write Notify By "gotify://h.example/***"`},
		{`Notify By email a@b.org ntfy://h.example/t?token=SeCrEt`, `found "ntfy://h.example/***?token=***"`},
	} {
		src := "Create Sentinel y Using http://a.example/\n" + tc.src
		s, err := ParseSentinel("", []byte(src))
		if err == nil {
			_, err = NewChecker(time.Now()).Check(s)
		}
		if err == nil || strings.Contains(err.Error(), "SeCrEt") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want it to say %s", tc.src, err, tc.want)
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

// TestEmailErrorsKeepDisplayName: an email address written with a display
// name (Bob: x@y.org, Bob <x@y.org>, a comment), which Vigil refuses, is
// named as written, in the checker's error and in a message that writes
// the clause again; a password of a URL given as an address (mailto:,
// smtp://) is hidden. "Bob: x@y.org" was named "Bob:xxxxx@y.org", its
// name taken for a user and the rest for a password, and a mailto: URL's
// password was quoted; so were they where the parser found them.
func TestEmailErrorsKeepDisplayName(t *testing.T) {
	for _, tc := range []struct{ address, want string }{
		{"Bob: x@y.org", "Bob: x@y.org"},
		{"Bob Smith: x@y.org", "Bob Smith: x@y.org"},
		{"Bob <x@y.org>", "Bob <x@y.org>"},
		{`"Bob: x" <x@y.org>`, `"Bob: x" <x@y.org>`},
		{"x@y.org (Bob: x)", "x@y.org (Bob: x)"},
		{"<x@y.org>", "<x@y.org>"},
		{"mailto:u:s3cret@y.org", "mailto:u:xxxxx@y.org"},
		{"MailTo:u:s3cret@y.org", "MailTo:u:xxxxx@y.org"},
		{"mailto://u:s3cret@y.org", "mailto://u:xxxxx@y.org"},
		{"smtp://u:s3cret@h.example/?to=x@y.org", "smtp://u:xxxxx@h.example/?to=x@y.org"},
		{"u:s3cret@h.example", "u:xxxxx@h.example"},
		// A display name quoted, a comment holding an "@", a password
		// holding a space: the password is hidden all the same.
		{`"Bob" <bob:s3cret@y.org>`, `"Bob" <bob:xxxxx@y.org>`},
		{`"Bob Smith" <bob:s3cret@y.org>`, `"Bob Smith" <bob:xxxxx@y.org>`},
		{"u:s3cret@y.org (me@home)", "u:xxxxx@y.org (me@home)"},
		{"(me@home) u:s3cret@y.org", "(me@home) u:xxxxx@y.org"},
		{"u:s3cret pw@y.org", "u:xxxxx@y.org"},
		{"Bob: u:s3cret pw@y.org", "Bob: u:xxxxx@y.org"},
		{"mailto:u:s3cret pw@y.org (me@home)", "mailto:u:xxxxx@y.org (me@home)"},
		// Where the "@" is in doubt, more is hidden.
		{"u:s3(cret@y.org (me@home)", "u:xxxxx@home)"},
		{`u:s3"cret@y.org`, "u:xxxxx@y.org"},
		{`u:"s3cret"@y.org`, "u:xxxxx@y.org"},
		{"u:s3<cret@y.org", "u:xxxxx@y.org"},
	} {
		err := ValidateContact(Email, tc.address)
		if err == nil || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), quote(tc.want)) {
			t.Errorf("ValidateContact(%s): %v; want an error naming it %s", tc.address, err, quote(tc.want))
		}
		if got := HideAddressPassword(tc.address); got != tc.want {
			t.Errorf("HideAddressPassword(%s) = %s, want %s", tc.address, got, tc.want)
		}
	}
	// Found where a clause or "By" was expected, and written again
	// after Notify By.
	for _, tc := range []struct{ src, want string }{
		{`Notify By email a@b.org "Bob: x@y.org"`, `found "Bob: x@y.org"`},
		{`Notify "Bob: x@y.org"`, `found "Bob: x@y.org": write Notify By email "Bob: x@y.org"`},
		{`Notify mailto:u:s3cret@y.org`, `found "mailto:u:xxxxx@y.org": write Notify By email u:xxxxx@y.org`},
		{`Notify "u:s3cret@y.org"`, `found "u:xxxxx@y.org": write Notify By email "u:xxxxx@y.org"`},
		{`Notify By email a@b.org "\"Bob\" <bob:s3cret@y.org>"`, `found "\"Bob\" <bob:xxxxx@y.org>"`},
		{`Notify "\"Bob\" <bob:s3cret@y.org>"`, `write Notify By email "\"Bob\" <bob:xxxxx@y.org>"`},
		{`Notify By email a@b.org "u:s3cret@y.org (me@home)"`, `found "u:xxxxx@y.org (me@home)"`},
		{`Notify "u:s3cret@y.org (me@home)"`, `write Notify By email "u:xxxxx@y.org (me@home)"`},
		{`Notify By email a@b.org "u:s3cret pw@y.org"`, `found "u:xxxxx@y.org"`},
		{`Notify "u:s3cret pw@y.org"`, `write Notify By email "u:xxxxx@y.org"`},
	} {
		_, err := ParseSentinel("", []byte("Create Sentinel y Using http://a.example/\n"+tc.src))
		if err == nil || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want it to say %s", tc.src, err, tc.want)
		}
	}
	// Written again in a message on the clause.
	src := "Create Sentinel y Using http://a.example/\nNotify By email \"Bob: x@y.org\" email \"mailto:u:s3cret@y.org\""
	_, err := ParseSentinel("", []byte(src))
	if want := `write Notify By email "Bob: x@y.org", email mailto:u:xxxxx@y.org`; err == nil || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), want) {
		t.Errorf("ParseSentinel: %v; want it to say %s", err, want)
	}
}

// quoteClosed finds a quote that closes a quoted string in the way of a
// display name's or a quoted local part's (before white space, "<" or
// the "@"): a password holding one is read as such, as RFC 5322 reads it.
var quoteClosed = regexp.MustCompile(`"(\s|<|$)`)

// FuzzHideAddressPassword: whatever the display name, the user and the
// comment around it, the password of an address written user:pw@y.org,
// alone, in angle brackets after a name, quoted or not, or before a
// comment, is not shown (but where it begins with white space, read as
// a display name's colon, or closes a quoted string, read as a name's),
// and HideAddressPassword does not panic on any address.
func FuzzHideAddressPassword(f *testing.F) {
	f.Add("Bob", "bob", "hunter2", "me@home")
	f.Add("Bob: x", "u", "pa ss", "(a@b)")
	f.Add(`"x:y"`, "a@b", `s3"cr(et`, "")
	f.Fuzz(func(t *testing.T, name, user, pw, comment string) {
		HideAddressPassword(name + user + pw + comment)
		secret := strings.TrimSpace(pw)
		if len(secret) < 3 || strings.ContainsAny(pw, "@\\\r\n") || strings.ContainsAny(user, ":\"\\()<>@ \t\r\n") ||
			strings.IndexFunc(pw, unicode.IsSpace) == 0 || quoteClosed.MatchString(pw) ||
			strings.Contains(strconv.Quote(name)+name+user+comment+":xxxxx@y.org", secret) {
			return // not a password, or shown elsewhere
		}
		if strings.Contains(name+user+":"+pw+comment, "//") {
			return // a URL, whose rule is hidePassword's
		}
		addr := user + ":" + pw + "@y.org"
		for _, in := range []string{
			addr,
			"mailto:" + addr,
			name + " <" + addr + ">",
			strconv.Quote(name) + " <" + addr + ">",
			addr + " (" + comment + ")",
			`"` + strings.ReplaceAll(addr, `"`, `\"`) + `"`, // as the sentinel file quotes it
		} {
			shell := strings.Replace(in, ":"+pw+"@", ":xxxxx@", 1)
			shell = strings.Replace(shell, ":"+strings.ReplaceAll(pw, `"`, `\"`)+"@", ":xxxxx@", 1)
			if strings.Contains(shell, secret) {
				continue // the password's text stands elsewhere too
			}
			if got := HideAddressPassword(in); strings.Contains(got, secret) {
				t.Errorf("HideAddressPassword(%q) = %q shows %q", in, got, secret)
			}
		}
	})
}
