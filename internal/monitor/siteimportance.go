package monitor

import (
	"context"
	"time"

	"github.com/vigil-web/vigil"
)

// readSiteImportance reads the start page of job j's site into the
// monitor's importance (importance.go), as the check of a page reads its
// page: rec is the crawl the check compares, whose first page is the
// start page after its redirects. The estimate goes to the check's
// importances (job.imp), so that it is stored on the start page's
// resource and on the sentinel, which the claims order by
// (vigil.ClaimPriority): a site sentinel is claimed by how late it is
// and how important its start page is among the watched pages, as a
// page sentinel is. The site's other pages are not read into the state:
// the crawl's importance of them is a share of the site's
// (crawl.Page.Importance), not of the watched pages'.
//
// Each check of a site sentinel is a read of its start page, a crawl
// shared by several sentinels (sitecrawl.go) as many reads: OPIC's
// estimate does not depend on how often a page is read, only its
// freshness does.
func (m *Monitor) readSiteImportance(ctx context.Context, j *job, rec *siteRecord, grant *memoryGrant, now time.Time) {
	if len(j.plan.keys) == 0 || rec == nil || rec.Snapshot == nil || len(rec.Snapshot.Pages) == 0 {
		return
	}
	start := rec.Snapshot.Pages[0].URL
	if rec.Versions[start] == 0 {
		return // read without its body (not HTML, or failed): no links
	}
	head, err := m.pageHead(ctx, start)
	if err == nil && head != nil && head.Error != "" {
		return // a binary document (storeLeaf), or failing since: no links
	}
	if err != nil || head == nil {
		if err != nil {
			m.Logger.Error("read the start page for its importance", LogSentinel, j.s.ID, logURL(start), LogError, err)
		}
		return
	}
	pg := &page{url: start, resource: head.ResourceID, cur: head}
	imp, ok := m.readImportance(ctx, start, j.plan.keys[0], pg, nil, grant, now)
	if !ok {
		return
	}
	j.imp = append(j.imp[:0], vigil.PageImportance{ResourceID: head.ResourceID, Importance: imp.est})
	j.impStore, j.impSettled = imp.store, imp.settled
}
