package web

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/spec"
)

// createChecked stores a sentinel of u written src, checked as the
// server would check it.
func createChecked(t testing.TB, s *Server, u *vigil.User, src string) *vigil.Sentinel {
	t.Helper()
	sen, err := spec.ParseSentinel("test", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC().Truncate(time.Second)
	ch, err := spec.NewChecker(now).Check(sen)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(ch)
	if err != nil {
		t.Fatal(err)
	}
	out := &vigil.Sentinel{OwnerID: u.ID, Name: sen.Name.Name, Source: src, Spec: data, Status: vigil.SentinelActive, NextCheck: now}
	if err := s.Store.CreateSentinel(context.Background(), out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSitePagesReadable: the owner of a site sentinel reads the pages its
// changes list, wherever the crawl found them (after a redirect to
// another host too), and no other resource because its URL lies under the
// site: another user's page there, which the crawl never reached, stays
// theirs.
func TestSitePagesReadable(t *testing.T) {
	ctx := context.Background()
	s, ada, bob, site, bobs, resource := siteOwners(t)
	start := resource("https://www.a.example/")      // the start page, after a redirect
	moved := resource("https://www.a.example/guide") // a page of the crawl, on the host it moved to
	records, err := json.Marshal([]intent.Change{
		intent.NewPageChange(intent.Insert, &intent.PageInfo{URL: moved.URL, ResourceID: moved.ID}),
	})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	if err := s.Store.CreateChange(ctx, &vigil.Change{SentinelID: site.ID, ResourceID: start.ID, ToVersion: 1, DetectedAt: now,
		Summary: "site http://a.example/: 1 page added", Records: records}); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		who  *vigil.User
		res  *vigil.Resource
		want bool
	}{
		{ada, bobs, false}, // under the site, never reached by its crawl
		{ada, start, true},
		{ada, moved, true},
		{bob, bobs, true},
		{bob, moved, false},
	} {
		err := s.checkReadable(ctx, tt.who, tt.res)
		if got := err == nil; got != tt.want || err != nil && vigil.ErrorCode(err) != vigil.ENOTFOUND {
			t.Errorf("%s reads %s: %v, want readable %v", tt.who.Email, tt.res.URL, err, tt.want)
		}
	}
}

// siteOwners sets up the site-page access tests: Ada watches the site
// http://a.example/, Bob a report under it (bobs). resource returns the
// resource of a URL, created if need be.
func siteOwners(t *testing.T) (s *Server, ada, bob *vigil.User, site *vigil.Sentinel, bobs *vigil.Resource, resource func(url string) *vigil.Resource) {
	t.Helper()
	ctx := context.Background()
	s, ada = newTestServer(t)
	bob = &vigil.User{Email: "bob@example.com", Name: "Bob"}
	if err := s.Store.CreateUser(ctx, bob); err != nil {
		t.Fatal(err)
	}
	createChecked(t, s, bob, "Create Sentinel report Using http://a.example/private/report?token=s3cr3t")
	site = createChecked(t, s, ada, "Create Sentinel docs Using site http://a.example/")
	resource = func(url string) *vigil.Resource {
		t.Helper()
		r, err := s.Store.EnsureResource(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	return s, ada, bob, site, resource("http://a.example/private/report?token=s3cr3t"), resource
}

// TestChangeListResourceFilter: changes filtered by a resource the user
// cannot read, or that does not exist, are refused as not found, as a
// filter by another's sentinel is; the list answered empty, so a typo in
// the id read as "no change".
func TestChangeListResourceFilter(t *testing.T) {
	s, ada, _, _, bobs, _ := siteOwners(t)
	for _, q := range []string{"resource=" + strconv.FormatInt(bobs.ID, 10), "resource=99999"} {
		req := httptest.NewRequest("GET", "/api/v1/changes?"+q, nil)
		rec := httptest.NewRecorder()
		err := s.handleChangeList(rec, req, ada)
		if vigil.ErrorCode(err) != vigil.ENOTFOUND || !strings.HasPrefix(vigil.ErrorMessage(err), "resource ") {
			t.Errorf("%s: %v (%d %s), want ENOTFOUND", q, err, rec.Code, rec.Body)
		}
	}
}
