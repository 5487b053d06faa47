package crawl_test

import (
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl"
)

// TestSnapshotErrorsHidePassword: a snapshot's validation errors name a
// URL with credentials (a link's target keeps them, as vigil.CanonicalURL
// does) with its password as xxxxx (vigil.RedactURL); they quoted it as
// written, and vigil site diff prints them.
func TestSnapshotErrorsHidePassword(t *testing.T) {
	const secret = "https://user:s3cret@other.example/x"
	for name, edit := range map[string]func(s *crawl.Snapshot){
		"link out of scope": func(s *crawl.Snapshot) {
			s.Pages[1].Links = append(s.Pages[1].Links, crawl.Link{Target: secret})
		},
		"link twice": func(s *crawl.Snapshot) {
			s.Pages[1].Links = append(s.Pages[1].Links, crawl.Link{Target: secret}, crawl.Link{Target: secret})
		},
		"url not canonical": func(s *crawl.Snapshot) {
			s.Pages[2].URL = "HTTPS://user:s3cret@example.org/docs/old.html"
		},
		"start": func(s *crawl.Snapshot) {
			s.Query.Start = "https://user:s3cret@example.org/docs/"
		},
		"redirect to itself": func(s *crawl.Snapshot) {
			s.Redirects[0] = crawl.Redirect{From: secret, To: secret}
		},
	} {
		s := example()
		edit(s)
		err := s.Validate()
		if vigil.ErrorCode(err) != vigil.EINVALID || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "user:xxxxx@") {
			t.Errorf("%s: %v; want EINVALID naming the URL with its password hidden", name, err)
		}
	}
}
