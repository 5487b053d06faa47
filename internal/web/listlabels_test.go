package web

import (
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
)

// TestListCellsNameTheirColumn: on a narrow screen a list table's rows
// become blocks and its header is hidden, so each cell of a column with a
// header says which column it is in (data-label, shown before its value);
// the sentinels list showed "—", "—", "—" for a paused sentinel with
// nothing to say which of its next check, last change and errors each was.
func TestListCellsNameTheirColumn(t *testing.T) {
	s, u := newTestServer(t)
	now := time.Now()
	for name, data := range map[string]any{
		"sentinels": &sentinelsData{Rows: []*sentinelRow{{Sentinel: &vigil.Sentinel{ID: 1, Name: "s", Status: vigil.SentinelActive, NextCheck: now},
			URLs: []string{"http://a/"}}}, Pager: &pager{Limit: 100, Total: 1, Shown: 1}},
		"notifications": &notificationsData{Rows: []*notificationRow{{Notification: &vigil.Notification{ID: 1, Channel: "webhook",
			State: vigil.NotificationDead, CreatedAt: now}, Target: "http://a/", Subject: "x", Retryable: true}},
			Pager: &pager{Limit: 50, Total: 1, Shown: 1}},
		"tokens": &tokensData{Tokens: []*vigil.Token{{ID: 1, Name: "t", CreatedAt: now}}},
		"diff": &diffData{Resource: &vigil.Resource{ID: 1}, From: &vigil.Version{ID: 1}, To: &vigil.Version{ID: 2}, View: "records",
			Records: []intent.Change{{Kind: "node", Op: "update", Old: "a", New: "b", NewPath: "/p[1]"}}},
	} {
		w := httptest.NewRecorder()
		s.render(w, httptest.NewRequest("GET", "/", nil), 200, name, &view{Title: name, User: u, CSRF: "c", Data: data})
		page := w.Body.String()
		table := regexp.MustCompile(`(?s)<table class="list".*?</table>`).FindString(page)
		if table == "" {
			t.Errorf("%s: no list table:\n%s", name, page)
			continue
		}
		var heads []string
		for _, m := range regexp.MustCompile(`<th(?:\s[^>]*)?>(.*?)</th>`).FindAllStringSubmatch(table, -1) {
			heads = append(heads, m[1])
		}
		_, body, _ := strings.Cut(table, "<tbody>")
		for _, row := range regexp.MustCompile(`(?s)<tr(?:\s[^>]*)?>.*?</tr>`).FindAllString(body, -1) {
			cells := regexp.MustCompile(`<td(?:\s[^>]*)?>`).FindAllString(row, -1)
			if len(cells) != len(heads) {
				t.Errorf("%s: %d cells under %d headers: %s", name, len(cells), len(heads), row)
				continue
			}
			for i, head := range heads {
				if strings.Contains(head, "<") {
					continue // a header for screen readers only (Actions)
				}
				if want := `data-label="` + head + `"`; !strings.Contains(cells[i], want) {
					t.Errorf("%s: the cell %s of column %q has no %s", name, cells[i], head, want)
				}
			}
		}
	}
}
