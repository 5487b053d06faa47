package storetest

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
)

// testResourceHostDNSRefuses: no resource is stored under a host DNS
// refuses (spec.CheckHostName: an empty label, a label over 63 bytes, a
// name over 253), which vigil.CanonicalURL leaves to its callers:
// EnsureResource answers EINVALID naming the host and what is wrong with
// it, and stores nothing. "a.example.." was stored as "a.example", and
// the others as written. An absolute name ("a.example.") and a label of
// 63 bytes are taken.
func testResourceHostDNSRefuses(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	long := strings.Repeat("x", 64) + ".example"
	longName := strings.Repeat(strings.Repeat("y", 50)+".", 5) + "example"
	for _, tt := range []struct{ url, want string }{
		{"http://a..example/", `host "a..example" has an empty label`},
		{"http://a.example../", `host "a.example.." has an empty label`},
		{"https://.example/x", `host ".example" has an empty label`},
		{"http://" + long + "/", "has a label of 64 bytes: DNS takes at most 63"},
		{"http://" + longName + ":8080/", "is 262 bytes long: DNS takes at most 253"},
	} {
		_, err := s.EnsureResource(ctx, tt.url)
		wantCode(t, err, vigil.EINVALID)
		if msg := vigil.ErrorMessage(err); !strings.Contains(msg, tt.want) {
			t.Errorf("EnsureResource(%s): %q, want a message with %q", tt.url, msg, tt.want)
		}
	}
	if _, n, err := s.FindResources(ctx, vigil.ResourceFilter{}); err != nil || n != 0 {
		t.Fatalf("FindResources: %d resources, %v; want none stored", n, err)
	}
	for in, want := range map[string]string{
		"http://a.example./":                         "http://a.example/",
		"http://" + strings.Repeat("x", 63) + ".e/":  "http://" + strings.Repeat("x", 63) + ".e/",
		"http://[2001:db8::1]/":                      "http://[2001:db8::1]/",
		"http://127.0.0.1:8080/":                     "http://127.0.0.1:8080/",
		"http://" + strings.Repeat("z.", 126) + "e/": "http://" + strings.Repeat("z.", 126) + "e/",
	} {
		r, err := s.EnsureResource(ctx, in)
		must(t, err)
		if r.URL != want {
			t.Errorf("EnsureResource(%s): %s, want %s", in, r.URL, want)
		}
	}
}

// testResourceErrorsHidePassword: EnsureResource's errors name a URL with
// its password as xxxxx (vigil.RedactURL), a host DNS refuses and a URL
// CanonicalURL refuses alike, and store nothing; FindResourceByURL's
// ENOTFOUND names it so too; a good URL with
// credentials is stored as given, the password in its key.
func testResourceErrorsHidePassword(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	for _, tt := range []struct{ url, want string }{
		{"http://user:s3cret@a..example/", `"http://user:xxxxx@a..example/"`},
		{"http://user:s3cret@a.example:x/", `"http://user:xxxxx@a.example:x/"`},
		{"ftp://user:s3cret@a.example/", `"ftp://user:xxxxx@a.example/"`},
		{"http://user:s3cret@/x", `"http://user:xxxxx@/x"`},
	} {
		_, err := s.EnsureResource(ctx, tt.url)
		wantCode(t, err, vigil.EINVALID)
		if msg := vigil.ErrorMessage(err); !strings.Contains(msg, tt.want) || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("EnsureResource(%s): %q, want a message with %s and no password", tt.url, msg, tt.want)
		}
	}
	if _, n, err := s.FindResources(ctx, vigil.ResourceFilter{}); err != nil || n != 0 {
		t.Fatalf("FindResources: %d resources, %v; want none stored", n, err)
	}
	_, err := s.FindResourceByURL(ctx, "http://user:s3cret@b.example/")
	wantCode(t, err, vigil.ENOTFOUND)
	if msg := vigil.ErrorMessage(err); !strings.Contains(msg, "http://user:xxxxx@b.example/") || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("FindResourceByURL: %q, want a message naming the URL without its password", msg)
	}
	r, err := s.EnsureResource(ctx, "http://user:s3cret@a.example/x")
	must(t, err)
	if r.URL != "http://user:s3cret@a.example/x" {
		t.Errorf("EnsureResource: stored under %s, want the URL as given", r.URL)
	}
}
