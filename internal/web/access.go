package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/spec"
)

// Resources are shared: the store keeps one per URL, whoever watches it,
// and the monitor fetches it once for all. What a page said is not
// everyone's business, though (a page on a private network, which pages a
// user watches at all), so a user reads a resource, its versions and their
// diffs only if one of their sentinels watches its URL or has reported a
// change of it (a URL since edited away); any other resource is answered as
// not found, as another user's sentinel is. A sentinel on a site watches
// the pages its crawls reached, which its changes list (records of kind
// page): not every URL under the site, which would open to it the pages
// other users watch there (a URL with a token, a page no link reaches).

// watchedURLs returns the canonical URLs u's sentinels watch.
func (s *Server) watchedURLs(ctx context.Context, u *vigil.User) (map[string]bool, error) {
	urls, _, err := s.watched(ctx, u)
	return urls, err
}

// watched returns the canonical URLs u's sentinels watch, and the ids of
// those that watch a site.
func (s *Server) watched(ctx context.Context, u *vigil.User) (map[string]bool, []int64, error) {
	list, _, err := s.Store.FindSentinels(ctx, vigil.SentinelFilter{OwnerID: u.ID})
	if err != nil {
		return nil, nil, err
	}
	urls := map[string]bool{}
	var sites []int64
	for _, x := range list {
		if site, err := spec.CheckedSite(x.Spec); err == nil && site != nil {
			sites = append(sites, x.ID)
		}
		watched, err := spec.CheckedURLs(x.Spec)
		if err != nil {
			continue // a sentinel without a checked specification watches nothing
		}
		for _, raw := range watched {
			if canon, err := vigil.CanonicalURL(raw); err == nil {
				urls[canon] = true
			}
		}
	}
	return urls, sites, nil
}

// checkReadable returns ENOTFOUND unless u may read resource res.
func (s *Server) checkReadable(ctx context.Context, u *vigil.User, res *vigil.Resource) error {
	urls, sites, err := s.watched(ctx, u)
	if err != nil {
		return err
	}
	if urls[res.URL] {
		return nil
	}
	cs, _, err := s.Store.FindChanges(ctx, vigil.ChangeFilter{OwnerID: u.ID, ResourceID: res.ID, Limit: 1})
	if err != nil {
		return err
	}
	if len(cs) > 0 {
		return nil
	}
	listed, err := s.sitesList(ctx, sites, res)
	if err != nil {
		return err
	}
	if listed {
		return nil
	}
	return vigil.Errorf(vigil.ENOTFOUND, "resource %d not found", res.ID)
}

// siteChangesRead is how many changes of a site sentinel sitesList reads
// at a time.
const siteChangesRead = 100

// sitesList reports whether a change of one of the sentinels sites lists
// res among its pages.
func (s *Server) sitesList(ctx context.Context, sites []int64, res *vigil.Resource) (bool, error) {
	for _, id := range sites {
		for off := 0; ; off += siteChangesRead {
			cs, total, err := s.Store.FindChanges(ctx, vigil.ChangeFilter{SentinelID: id, Offset: off, Limit: siteChangesRead})
			if err != nil {
				return false, fmt.Errorf("changes of sentinel %d: %w", id, err)
			}
			for _, c := range cs {
				if listsPage(c.Records, res) {
					return true, nil
				}
			}
			if len(cs) == 0 || off+len(cs) >= total {
				break
			}
		}
	}
	return false, nil
}

// listsPage reports whether the records of a change list res as a page
// (intent.KindPage), by resource id or by URL.
func listsPage(records []byte, res *vigil.Resource) bool {
	var pages []struct {
		Page *struct {
			URL        string `json:"url"`
			ResourceID int64  `json:"resourceId"`
		} `json:"page"`
	}
	if json.Unmarshal(records, &pages) != nil {
		return false
	}
	for _, p := range pages {
		if p.Page != nil && (p.Page.ResourceID == res.ID || p.Page.URL == res.URL) {
			return true
		}
	}
	return false
}

// readableResource returns the resource named by the request's {id}, if u
// may read it.
func (s *Server) readableResource(r *http.Request, u *vigil.User) (*vigil.Resource, error) {
	res, err := s.resource(r)
	if err != nil {
		return nil, err
	}
	if err := s.checkReadable(r.Context(), u, res); err != nil {
		return nil, err
	}
	return res, nil
}

// readableVersion returns the version named by the request's {id}, if u
// may read its resource.
func (s *Server) readableVersion(r *http.Request, u *vigil.User) (*vigil.Version, error) {
	v, err := s.version(r)
	if err != nil {
		return nil, err
	}
	res, err := s.Store.FindResourceByID(r.Context(), v.ResourceID)
	if err == nil {
		err = s.checkReadable(r.Context(), u, res)
	}
	if vigil.ErrorCode(err) == vigil.ENOTFOUND {
		return nil, vigil.Errorf(vigil.ENOTFOUND, "version %d not found", v.ID)
	}
	if err != nil {
		return nil, err
	}
	return v, nil
}

// readableResources returns the resources u's sentinels watch that match
// f's URL and Host, in id order, f's page of them and how many match. A
// resource u reads only through a change of it (its sentinel since
// pointed elsewhere) opens by id but is not listed.
func (s *Server) readableResources(ctx context.Context, u *vigil.User, f vigil.ResourceFilter) ([]*vigil.Resource, int, error) {
	urls, err := s.watchedURLs(ctx, u)
	if err != nil {
		return nil, 0, err
	}
	want := ""
	if f.URL != nil {
		if want, err = vigil.CanonicalURL(*f.URL); err != nil {
			return nil, 0, err
		}
	}
	var list []*vigil.Resource
	for url := range urls {
		if want != "" && url != want {
			continue
		}
		res, err := s.Store.FindResourceByURL(ctx, url)
		if vigil.ErrorCode(err) == vigil.ENOTFOUND {
			continue // not fetched yet
		}
		if err != nil {
			return nil, 0, err
		}
		if f.Host != nil && res.Host != *f.Host {
			continue
		}
		list = append(list, res)
	}
	slices.SortFunc(list, func(a, b *vigil.Resource) int { return int(a.ID - b.ID) })
	total := len(list)
	list = list[min(f.Offset, len(list)):]
	if f.Limit > 0 && f.Limit < len(list) {
		list = list[:f.Limit]
	}
	return list, total, nil
}

// ownChangesOf returns the newest changes (up to limit) u's sentinels
// reported on a resource, newest first.
func (s *Server) ownChangesOf(r *http.Request, u *vigil.User, resourceID int64, limit int) ([]*vigil.Change, error) {
	cs, _, err := s.Store.FindChanges(r.Context(), vigil.ChangeFilter{OwnerID: u.ID, ResourceID: resourceID, Limit: limit})
	return cs, err
}
