package web

import (
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
)

// TestUserRules: the rules of user management that the Users page and
// vigil user share.
func TestUserRules(t *testing.T) {
	for _, tc := range []struct {
		pw, err string
	}{
		{"", "empty password"},
		{"elevenchars", "too short: 11 characters, want at least 12"},
		{"twelve chars", ""},
		{"ééééééééééé", "too short: 11 characters, want at least 12"}, // runes, not bytes
		{strings.Repeat("x", MaxPasswordBytes+1), "too long: want at most 1024 bytes"},
	} {
		if err := CheckNewPassword(tc.pw); vigil.ErrorMessage(err) != tc.err && (err != nil || tc.err != "") {
			t.Errorf("CheckNewPassword(%.20q): %v, want %q", tc.pw, err, tc.err)
		}
	}
	pw, hash, generated, err := NewPassword("")
	if err != nil || !generated || len(pw) != 24 || !CheckPassword(hash, pw) {
		t.Errorf("generated: %q %v %v", pw, generated, err)
	}
	if again, _, _, _ := NewPassword(""); again == pw {
		t.Error("two generated passwords are the same")
	}
	if pw, hash, generated, err := NewPassword("a typed password"); err != nil || generated || pw != "a typed password" || !CheckPassword(hash, pw) {
		t.Errorf("typed: %q %v %v", pw, generated, err)
	}
	if _, _, _, err := NewPassword("short"); vigil.ErrorCode(err) != vigil.EINVALID {
		t.Errorf("typed short: %v", err)
	}

	for _, tc := range []struct {
		email, name   string
		admin         bool
		want, wantErr string // want: email/name
	}{
		{" Ann@Example.ORG ", "", false, "ann@example.org/ann", ""},
		{"bob@example.org", " Bob B. ", true, "bob@example.org/Bob B.", ""},
		{"bob", "", false, "", `invalid email address "bob"`},
		{"bob@example", "", false, "", "the domain has no dot"},
		{"cy@example.org", strings.Repeat("n", 201), false, "", "user name longer than 200 bytes"},
	} {
		u, err := NewUser(tc.email, tc.name, tc.admin)
		if tc.wantErr != "" {
			if vigil.ErrorCode(err) != vigil.EINVALID || !strings.Contains(vigil.ErrorMessage(err), tc.wantErr) {
				t.Errorf("NewUser(%q, %q): %v, want %q", tc.email, tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil || u.Email+"/"+u.Name != tc.want || u.Admin != tc.admin {
			t.Errorf("NewUser(%q, %q): %+v %v, want %s", tc.email, tc.name, u, err, tc.want)
		}
	}
}
