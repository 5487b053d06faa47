package web

import (
	"context"
	"net/http"
	"slices"
	"strings"

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
// every page under the site's scope (spec.Site.Scope).

// watchedURLs returns the canonical URLs u's sentinels watch.
func (s *Server) watchedURLs(ctx context.Context, u *vigil.User) (map[string]bool, error) {
	urls, _, err := s.watched(ctx, u)
	return urls, err
}

// watched returns the canonical URLs u's sentinels watch, and the scopes
// (URL prefixes) of the sites they watch: a page of a site is read by
// the owner of a sentinel on the site, whose changes link it.
func (s *Server) watched(ctx context.Context, u *vigil.User) (map[string]bool, []string, error) {
	list, _, err := s.Store.FindSentinels(ctx, vigil.SentinelFilter{OwnerID: u.ID})
	if err != nil {
		return nil, nil, err
	}
	urls := map[string]bool{}
	var scopes []string
	for _, x := range list {
		if site, err := spec.CheckedSite(x.Spec); err == nil && site != nil {
			if canon, err := vigil.CanonicalURL(site.Scope()); err == nil {
				scopes = append(scopes, canon)
			}
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
	return urls, scopes, nil
}

// checkReadable returns ENOTFOUND unless u may read resource res.
func (s *Server) checkReadable(ctx context.Context, u *vigil.User, res *vigil.Resource) error {
	urls, scopes, err := s.watched(ctx, u)
	if err != nil {
		return err
	}
	if urls[res.URL] {
		return nil
	}
	for _, p := range scopes {
		if strings.HasPrefix(res.URL, p) {
			return nil
		}
	}
	cs, _, err := s.Store.FindChanges(ctx, vigil.ChangeFilter{OwnerID: u.ID, ResourceID: res.ID, Limit: 1})
	if err != nil {
		return err
	}
	if len(cs) > 0 {
		return nil
	}
	return vigil.Errorf(vigil.ENOTFOUND, "resource %d not found", res.ID)
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
