package warehouse

import (
	"net/url"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
)

// TestCanonicalLinkErrorsHidePassword: CanonicalLink's errors name an
// href with credentials with its password as xxxxx (vigil.RedactURL);
// they quoted it as written.
func TestCanonicalLinkErrorsHidePassword(t *testing.T) {
	for _, raw := range []string{"http://user:s3cret@a..example/", "http://user:s3cret@-b%C3%BCcher.example/", "ftp://user:s3cret@a.example/"} {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		_, err = CanonicalLink(u)
		if vigil.ErrorCode(err) != vigil.EINVALID || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "user:xxxxx@") {
			t.Errorf("CanonicalLink(%s): %v; want EINVALID naming it with its password hidden", raw, err)
		}
	}
}
