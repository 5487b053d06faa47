package web

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

// TestUsersListTimeZone: an administrator sees each user's own time zone
// (none: the deployment's) in GET /api/v1/users and on the Users page.
// Neither showed it.
func TestUsersListTimeZone(t *testing.T) {
	s, admin := newTestServer(t)
	ctx := context.Background()
	c := newSignedIn(t, s, admin)
	if err := s.Store.SetUserTimeZone(ctx, admin.ID, "Asia/Tokyo"); err != nil {
		t.Fatal(err)
	}
	token := bearer(t, s.Store, admin, "admin-secret")
	status, v := apiCall(t, c.srv.URL, token, "GET", "/api/v1/users", "")
	items, _ := v["items"].([]any)
	if status != http.StatusOK || len(items) != 1 {
		t.Fatalf("GET /api/v1/users: %d %v", status, v)
	}
	if item, _ := items[0].(map[string]any); item["timeZone"] != "Asia/Tokyo" {
		t.Errorf("listed %v; want timeZone Asia/Tokyo", item)
	}
	if status, body := c.do("GET", "/users", ""); status != 200 || !strings.Contains(body, `<td data-label="Time zone">Asia/Tokyo</td>`) {
		t.Errorf("the Users page: %d; want Asia/Tokyo in its Time zone column\n%s", status, body)
	}
}
