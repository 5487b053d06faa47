package vigil_test

import (
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
)

func TestRedactURL(t *testing.T) {
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
		t.Run(name, func(t *testing.T) {
			got := vigil.RedactURL(tc.in)
			if got != tc.want {
				t.Fatalf("RedactURL(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if strings.Contains(got, "s3cret") {
				t.Fatalf("RedactURL(%q) = %q shows the password", tc.in, got)
			}
		})
	}
}

// TestCanonicalURLErrorsHidePassword: every error of CanonicalURL names
// the URL with its password as xxxxx.
func TestCanonicalURLErrorsHidePassword(t *testing.T) {
	tests := map[string]struct{ in, want string }{
		"does not parse":   {in: "http://user:s3cret@a.example:x/", want: `"http://user:xxxxx@a.example:x/"`},
		"no scheme":        {in: "user:s3cret@a.example:8080/docs", want: `"user:xxxxx@a.example:8080/docs"`},
		"scheme":           {in: "ftp://user:s3cret@a.example/", want: `"ftp://user:xxxxx@a.example/"`},
		"no host":          {in: "http://user:s3cret@/x", want: `"http://user:xxxxx@/x"`},
		"unicode host":     {in: "http://user:s3cret@bücher.example/", want: `"http://user:xxxxx@bücher.example/"`},
		"invalid path":     {in: "http://user:s3cret@a.example/%zz", want: `"http://user:xxxxx@a.example/%zz"`},
		"opaque":           {in: "http:user:s3cret@a.example", want: `"http:xxxxx@a.example"`},
		"trimmed password": {in: " http://u:s3cret@[::1/ ", want: `http://u:xxxxx@[::1/`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := vigil.CanonicalURL(tc.in)
			if err == nil {
				t.Fatalf("CanonicalURL(%q): no error", tc.in)
			}
			msg := vigil.ErrorMessage(err)
			if vigil.ErrorCode(err) != vigil.EINVALID || strings.Contains(err.Error(), "s3cret") || !strings.Contains(msg, tc.want) {
				t.Fatalf("CanonicalURL(%q): %v; want EINVALID naming %s, no password", tc.in, err, tc.want)
			}
		})
	}
}

// TestResourceValidateHidesPassword: a resource whose URL is not
// canonical is named with its password hidden.
func TestResourceValidateHidesPassword(t *testing.T) {
	r := &vigil.Resource{URL: "HTTP://user:s3cret@a.example/", Host: "a.example"}
	err := r.Validate()
	if vigil.ErrorCode(err) != vigil.EINVALID || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "user:xxxxx@") {
		t.Errorf("Validate: %v; want EINVALID naming the URL with its password hidden", err)
	}
}
