package web

import (
	"context"
	"encoding/json"
	"html"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
)

// TestSentinelUseConflict: an edit in the dashboard's editor that the
// sentinels using the edited one refuse, a rename of a sentinel another
// uses or a change that would make one of them invalid, is shown as the
// form's other errors are (and as a name taken meanwhile is): the editor
// again, 422, the source as typed, and a message saying what conflicts
// with which sentinel; a rename marks the name. Before, the editor
// answered the generic error page "Conflict" (409), the source typed
// lost. The API answers 409 saying the same, with a diagnostic. Nothing
// is saved. On SQLite, and on PostgreSQL when VIGIL_TEST_POSTGRES_DSN
// is set.
func TestSentinelUseConflict(t *testing.T) {
	const (
		base = "Create Sentinel base Using http://a.example/ Fetch 1 hour"
		kid  = "Create Sentinel kid Using base Fetch 1 hour To 01/01/2090"
	)
	for name, open := range raceStores() {
		t.Run(name, func(t *testing.T) {
			for _, tc := range []struct {
				name, src string
				api       bool
				want      []string // in the editor's page or the API's message
			}{
				{"rename", "Create Sentinel renamed Using http://a.example/ Fetch 1 hour", false,
					[]string{"1:17: sentinel base cannot be renamed: it is used by kid; edit or remove it first", `aria-invalid="true"`}},
				{"dependent invalid", "Create Sentinel base Using http://a.example/ Fetch 1 hour From 01/01/2095", false,
					[]string{"sentinel base cannot be changed so: kid, which uses it, would be invalid: 3:5: To 01/01/2090", "To 01/01/2090 is not after From 01/01/2095", `aria-invalid="true"`}},
				{"API rename", "Create Sentinel renamed Using http://a.example/ Fetch 1 hour", true,
					[]string{"sentinel base cannot be renamed: it is used by kid; edit or remove it first"}},
				{"API dependent invalid", "Create Sentinel base Using http://a.example/ Fetch 1 hour From 01/01/2095", true,
					[]string{"sentinel base cannot be changed so: kid, which uses it, would be invalid: 3:5: To 01/01/2090"}},
			} {
				t.Run(tc.name, func(t *testing.T) {
					ctx := context.Background()
					st := open(t)
					s, u := checkingServer(t, st)
					edited := saveAll(t, s, u, base, kid)[0]
					c := newSignedIn(t, s, u)
					path := "/sentinels/" + strconv.FormatInt(edited.ID, 10)
					method, body, status := "POST", url.Values{"source": {tc.src}}.Encode(), 422
					if tc.api {
						b, _ := json.Marshal(map[string]string{"source": tc.src})
						method, path, body, status = "PUT", "/api/v1"+path, string(b), 409
					}
					got, page := c.do(method, path, body)
					if got != status {
						t.Errorf("%s %s: %d, want %d:\n%s", method, path, got, status, page)
					}
					if tc.api {
						var e errorBody
						if err := json.Unmarshal([]byte(page), &e); err != nil {
							t.Fatalf("%s %s: %v %s", method, path, err, page)
						}
						if e.Error.Code != vigil.ECONFLICT || len(e.Error.Diagnostics) != 1 || !strings.Contains(e.Error.Message, tc.want[0]) || !strings.Contains(e.Error.Diagnostics[0].Message, tc.want[0]) {
							t.Errorf("%s %s: %s; want ECONFLICT with one diagnostic saying %q", method, path, page, tc.want[0])
						}
					} else {
						page = html.UnescapeString(page)
						for _, want := range append([]string{">" + tc.src + "</textarea>"}, tc.want...) {
							if !strings.Contains(page, want) {
								t.Errorf("%s %s: the editor does not show %q:\n%s", method, path, want, page)
							}
						}
					}
					if saved, err := st.FindSentinelByID(ctx, edited.ID); err != nil || saved.Source != edited.Source {
						t.Errorf("base after the refused edit: %v %v; want it unchanged", saved, err)
					}
				})
			}
		})
	}
}

// checkingServer returns a Server on st that checks sentinels against the
// owner's stored ones, as the daemon's does, and its admin ada, signed up.
func checkingServer(t *testing.T, st vigil.Store) (*Server, *vigil.User) {
	t.Helper()
	ctx := context.Background()
	if _, err := EnsureAdmin(ctx, st, "ada@example.com", "pw"); err != nil {
		t.Fatal(err)
	}
	u, err := st.FindUserByEmail(ctx, "ada@example.com")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Store: st, Secret: []byte(strings.Repeat("k", 32))}
	s.Checker = storeChecker(s)
	return s, u
}

// saveAll saves each source as a new sentinel of u through the editor's
// path (saveSentinel), in order, and returns the sentinels saved.
func saveAll(t *testing.T, s *Server, u *vigil.User, sources ...string) []*vigil.Sentinel {
	t.Helper()
	var saved []*vigil.Sentinel
	for _, src := range sources {
		sen, err := s.saveSentinel(context.Background(), u, &sentinelInput{Source: src}, nil)
		if err != nil {
			t.Fatalf("create %s: %v", src, err)
		}
		saved = append(saved, sen)
	}
	return saved
}
