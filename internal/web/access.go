package web

import (
	"cmp"
	"context"
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
// The resources list holds what a user reads this way through the
// sentinels they have now: the URLs they watch, and the pages their site
// sentinels' changes list or are recorded on, marked as such.

// watched returns the canonical URLs u's sentinels watch, and those of
// them that watch a site.
func (s *Server) watched(ctx context.Context, u *vigil.User) (map[string]bool, []*vigil.Sentinel, error) {
	list, _, err := s.Store.FindSentinels(ctx, vigil.SentinelFilter{OwnerID: u.ID})
	if err != nil {
		return nil, nil, err
	}
	urls := map[string]bool{}
	var sites []*vigil.Sentinel
	for _, x := range list {
		if site, err := spec.CheckedSite(x.Spec); err == nil && site != nil {
			sites = append(sites, x)
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

// sitesList reports whether a change of one of the sentinels sites lists
// res among its pages (a record of kind page naming its resource id or
// its URL), from the store's index of the pages changes name
// (vigil.ChangeStore.FindChangePages), whatever the number of changes.
// The index names the resource each change is recorded on too, which
// checkReadable has already let through.
func (s *Server) sitesList(ctx context.Context, sites []*vigil.Sentinel, res *vigil.Resource) (bool, error) {
	if len(sites) == 0 {
		return false, nil
	}
	pages, err := s.Store.FindChangePages(ctx, vigil.ChangePageFilter{SentinelIDs: sentinelIDs(sites), ResourceID: res.ID, URL: res.URL, Limit: 1})
	if err != nil {
		return false, err
	}
	return len(pages) > 0, nil
}

// sentinelIDs returns the ids of list.
func sentinelIDs(list []*vigil.Sentinel) []int64 {
	ids := make([]int64, len(list))
	for i, sen := range list {
		ids[i] = sen.ID
	}
	return ids
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

// readableVersion returns the version named by the request's {id}, and
// its resource, if u may read that resource.
func (s *Server) readableVersion(r *http.Request, u *vigil.User) (*vigil.Version, *vigil.Resource, error) {
	v, err := s.version(r)
	if err != nil {
		return nil, nil, err
	}
	res, err := s.Store.FindResourceByID(r.Context(), v.ResourceID)
	if err == nil {
		err = s.checkReadable(r.Context(), u, res)
	}
	if vigil.ErrorCode(err) == vigil.ENOTFOUND {
		return nil, nil, vigil.Errorf(vigil.ENOTFOUND, "version %d not found", v.ID)
	}
	if err != nil {
		return nil, nil, err
	}
	return v, res, nil
}

// listedResource is a resource of the list a user reads
// (readableResources), with their site sentinels whose changes list it
// among the site's pages.
type listedResource struct {
	*vigil.Resource
	Sites []*vigil.Sentinel
}

// readableResources returns the resources u's sentinels watch that match
// f's URL and Host, in id order, f's page of them and how many match: the
// URLs they watch, and the pages of the sites they watch that their
// changes list (sitePages). A resource u reads only through a change of
// it by a sentinel since pointed elsewhere opens by id but is not listed.
func (s *Server) readableResources(ctx context.Context, u *vigil.User, f vigil.ResourceFilter) ([]*listedResource, int, error) {
	urls, sites, err := s.watched(ctx, u)
	if err != nil {
		return nil, 0, err
	}
	want := ""
	if f.URL != nil {
		if want, err = vigil.CanonicalURL(*f.URL); err != nil {
			return nil, 0, err
		}
	}
	byID, err := s.sitePages(ctx, sites)
	if err != nil {
		return nil, 0, err
	}
	found := map[string]bool{}
	for _, r := range byID {
		found[r.URL] = true
	}
	for url := range urls {
		if found[url] || want != "" && url != want {
			continue
		}
		res, err := s.Store.FindResourceByURL(ctx, url)
		if vigil.ErrorCode(err) == vigil.ENOTFOUND {
			continue // not fetched yet
		}
		if err != nil {
			return nil, 0, err
		}
		byID[res.ID] = &listedResource{Resource: res}
	}
	var list []*listedResource
	for _, r := range byID {
		if want != "" && r.URL != want || f.Host != nil && r.Host != *f.Host {
			continue
		}
		list = append(list, r)
	}
	slices.SortFunc(list, func(a, b *listedResource) int { return cmp.Compare(a.ID, b.ID) })
	total := len(list)
	list = list[min(f.Offset, len(list)):]
	if f.Limit > 0 && f.Limit < len(list) {
		list = list[:f.Limit]
	}
	return list, total, nil
}

// sitePages returns, by id, the resources the changes of the sentinels
// sites are recorded on (their start pages) or list as pages (by resource
// id or by URL, as sitesList matches them), each with the sentinels whose
// changes do: the pages of a site its watcher reads (checkReadable). A
// page without a resource (deleted since) is left out. The pages come
// from the store's index (vigil.ChangeStore.FindChangePages), once each,
// not from every change.
func (s *Server) sitePages(ctx context.Context, sites []*vigil.Sentinel) (map[int64]*listedResource, error) {
	out := map[int64]*listedResource{}
	if len(sites) == 0 {
		return out, nil
	}
	pages, err := s.Store.FindChangePages(ctx, vigil.ChangePageFilter{SentinelIDs: sentinelIDs(sites)})
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]*vigil.Sentinel, len(sites))
	for _, sen := range sites {
		byID[sen.ID] = sen
	}
	ids := map[int64][]*vigil.Sentinel{}
	urls := map[string][]*vigil.Sentinel{}
	// add appends sen to the sentinels of a page, once.
	add := func(l []*vigil.Sentinel, sen *vigil.Sentinel) []*vigil.Sentinel {
		if slices.Contains(l, sen) {
			return l
		}
		return append(l, sen)
	}
	for _, p := range pages {
		sen := byID[p.SentinelID]
		if sen == nil {
			continue
		}
		if p.ResourceID != 0 {
			ids[p.ResourceID] = add(ids[p.ResourceID], sen)
		}
		if p.URL != "" {
			urls[p.URL] = add(urls[p.URL], sen)
		}
	}
	byURL := map[string]*listedResource{}
	for id, sens := range ids {
		res, err := s.Store.FindResourceByID(ctx, id)
		if vigil.ErrorCode(err) == vigil.ENOTFOUND {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("page %d of a site: %w", id, err)
		}
		r := &listedResource{Resource: res, Sites: sens}
		out[id], byURL[res.URL] = r, r
	}
	for url, sens := range urls {
		if r := byURL[url]; r != nil {
			for _, sen := range sens {
				if !slices.Contains(r.Sites, sen) {
					r.Sites = append(r.Sites, sen)
				}
			}
			continue
		}
		res, err := s.Store.FindResourceByURL(ctx, url)
		if e := vigil.ErrorCode(err); e == vigil.ENOTFOUND || e == vigil.EINVALID {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("page %s of a site: %w", vigil.RedactURL(url), err)
		}
		if res.URL != url {
			continue // sitesList matches the URL as written, not its canonical form
		}
		out[res.ID] = &listedResource{Resource: res, Sites: sens}
	}
	for _, r := range out {
		slices.SortFunc(r.Sites, func(a, b *vigil.Sentinel) int { return cmp.Compare(a.ID, b.ID) })
	}
	return out, nil
}

// ownChangesOf returns the newest changes (up to limit) u's sentinels
// reported on a resource, newest first, and how many they reported.
func (s *Server) ownChangesOf(r *http.Request, u *vigil.User, resourceID int64, limit int) ([]*vigil.Change, int, error) {
	return s.Store.FindChanges(r.Context(), vigil.ChangeFilter{OwnerID: u.ID, ResourceID: resourceID, Limit: limit})
}
