package web

import (
	"context"
	"encoding/json"
	"html"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/spec"
)

// TestEditMovesEndOfUsed: kid starts at the end of base (From end(base)).
// An edit of base in the dashboard's editor that moves its end past
// kid's To is refused as the other edits that would make a sentinel
// using it invalid are: the editor again, naming kid. An edit through the
// API that moves base's end within kid's lifespan is saved with kid, whose
// stored start (and next check) is base's new end. Before, kid kept the
// start worked out from base's old end: the first edit was saved, leaving
// kid starting after it ends, and the second left kid starting at base's
// old end. On SQLite, and on PostgreSQL when VIGIL_TEST_POSTGRES_DSN is set.
func TestEditMovesEndOfUsed(t *testing.T) {
	const (
		base = "Create Sentinel base Using http://a.example/ Fetch 1 hour To 01/01/2080"
		kid  = "Create Sentinel kid Using http://b.example/ Fetch 1 hour From end(base) To 01/01/2090"
	)
	for name, open := range raceStores() {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			st := open(t)
			s, u := checkingServer(t, st)
			saved := saveAll(t, s, u, base, kid)
			c := newSignedIn(t, s, u)
			path := "/sentinels/" + strconv.FormatInt(saved[0].ID, 10)

			past := strings.Replace(base, "2080", "2095", 1)
			got, page := c.do("POST", path, url.Values{"source": {past}}.Encode())
			page = html.UnescapeString(page)
			if got != 422 {
				t.Errorf("POST %s To 2095: %d, want 422:\n%s", path, got, page)
			}
			for _, want := range []string{">" + past + "</textarea>", "sentinel base cannot be changed so: kid, which uses it, would be invalid", "To 01/01/2090 is not after From end(base)"} {
				if !strings.Contains(page, want) {
					t.Errorf("POST %s To 2095: the editor does not show %q:\n%s", path, want, page)
				}
			}
			if b, err := st.FindSentinelByID(ctx, saved[0].ID); err != nil || b.Source != saved[0].Source {
				t.Errorf("base after the refused edit: %v %v; want it unchanged", b, err)
			}

			within := strings.Replace(base, "2080", "2085", 1)
			body, _ := json.Marshal(map[string]string{"source": within})
			if got, page := c.do("PUT", "/api/v1"+path, string(body)); got != 200 {
				t.Fatalf("PUT %s To 2085: %d, want 200:\n%s", path, got, page)
			}
			k, err := st.FindSentinelByID(ctx, saved[1].ID)
			if err != nil {
				t.Fatal(err)
			}
			var ch spec.Checked
			if err := json.Unmarshal(k.Spec, &ch); err != nil {
				t.Fatal(err)
			}
			want := time.Date(2085, 1, 1, 0, 0, 0, 0, time.UTC)
			if !ch.Start.Equal(want) || !k.NextCheck.Equal(want) {
				t.Errorf("kid after base's end moved to 2085: start %v, next check %v; want both %v", ch.Start, k.NextCheck, want)
			}
		})
	}
}
