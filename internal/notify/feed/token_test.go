package feed

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
)

// TestToken: generation 0 gives the tokens of the feed URLs made before
// there were generations (pinned here as the old Token made them), so
// that they keep working; every other generation, of the same sentinel
// or another, gives another token.
func TestToken(t *testing.T) {
	secret32 := []byte("0123456789abcdef0123456789abcdef")
	pinned := map[string]struct {
		secret []byte
		id     int64
		want   string
	}{
		"short secret": {[]byte("k"), 7, "in8lmdHEQq3zSTwe7DjZr7jA"},
		"32-byte key":  {secret32, 42, "Hg_GMPHXKA6S1SmPSVaVvbby"},
	}
	for name, tc := range pinned {
		if got := Token(tc.secret, tc.id, 0); got != tc.want {
			t.Errorf("%s: Token(%d, generation 0) = %q, want %q as before generations", name, tc.id, got, tc.want)
		}
	}
	seen := map[string]string{}
	for _, id := range []int64{1, 2, 11, 12, 112} {
		for _, gen := range []int64{0, 1, 2, 12} {
			tok, this := Token(secret32, id, gen), fmt.Sprintf("sentinel %d at generation %d", id, gen)
			if other, ok := seen[tok]; ok {
				t.Errorf("%s has the token of %s", this, other)
			}
			seen[tok] = this
		}
	}
	if a, b := Token([]byte("k1"), 1, 1), Token([]byte("k2"), 1, 1); a == b {
		t.Errorf("two secrets give one token %q", a)
	}
}

// TestFeedRotated: once a sentinel's feed is at generation 2, the URLs of
// generations 0 and 1 are not found, as a wrong token is, and the URL of
// generation 2 serves the feed, which links to itself with it.
func TestFeedRotated(t *testing.T) {
	secret := []byte("k")
	s := &Server{Store: &fakeStore{generation: 2}, Secret: secret, BaseURL: "https://vigil.example"}
	mux := http.NewServeMux()
	s.Register(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	tests := map[string]struct {
		generation int64
		want       int
	}{
		"before generations": {0, http.StatusNotFound},
		"revoked":            {1, http.StatusNotFound},
		"current":            {2, http.StatusOK},
		"not yet":            {3, http.StatusNotFound},
	}
	for name, tc := range tests {
		for _, format := range []string{"atom", "rss"} {
			path := Path(secret, &vigil.Sentinel{ID: 1, FeedGeneration: tc.generation}, format)
			resp, err := http.Get(srv.URL + path)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.want {
				t.Errorf("%s %s: status %d, want %d", name, format, resp.StatusCode, tc.want)
			}
			if cc := resp.Header.Get("Cache-Control"); cc != "private, no-cache" {
				t.Errorf("%s %s: Cache-Control %q, want private, no-cache: a shared cache would serve a revoked feed", name, format, cc)
			}
			if format == "atom" && tc.want == http.StatusOK && !strings.Contains(string(body), `href="https://vigil.example`+path+`"`) {
				t.Errorf("%s: the feed does not link to itself at %s:\n%s", name, path, body)
			}
		}
	}
}

// TestFeedMalformedToken: a feed URL whose token is not of a token's
// length or alphabet is not found without a read of the store, and one of
// the right shape is checked against the sentinel's.
func TestFeedMalformedToken(t *testing.T) {
	secret := []byte("k")
	store := &fakeStore{}
	s := &Server{Store: store, Secret: secret}
	mux := http.NewServeMux()
	s.Register(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	good := Token(secret, 1, 0)
	tests := []struct {
		name, token string
		reads       int
		want        int
	}{
		{"short", "abc", 0, http.StatusNotFound},
		{"long", good + "A", 0, http.StatusNotFound},
		{"padding", good[:22] + "==", 0, http.StatusNotFound},
		{"not base64url", good[:23] + "+", 0, http.StatusNotFound},
		{"wrong but well formed", strings.Repeat("A", len(good)), 1, http.StatusNotFound},
		{"right", good, 1, http.StatusOK},
	}
	for _, tc := range tests {
		store.reads = 0
		resp, err := http.Get(srv.URL + "/feeds/1/" + tc.token + "/atom.xml")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want || store.reads != tc.reads {
			t.Errorf("%s: status %d after %d store reads, want %d after %d", tc.name, resp.StatusCode, store.reads, tc.want, tc.reads)
		}
	}
}
