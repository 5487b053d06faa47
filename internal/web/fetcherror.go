package web

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/spec"
)

// FetchError is the failed last fetch of one of a sentinel's pages: what
// the dashboard shows as the sentinel's last error, the API as its
// lastFetchError (and failingSince) and vigil sentinel list below its
// table.
type FetchError struct {
	// Since is when the page began to fail: the start of its run of
	// failed fetches as the monitor keeps it for the sentinel
	// (SentinelState.FailingSince, what its failure notice says), which
	// a change of the error does not end; where the sentinel's state has
	// none (not checked yet), the time of the fetch of the newest
	// version with the error.
	Since time.Time
	// Message is why it failed, as the fetcher said it and the newest
	// version keeps it: the URL it names has its password hidden
	// (vigil.RedactURL), as in every error of the fetcher.
	Message string
}

// sentinelPage is one of a sentinel's pages as its dashboard row lists
// it: its resource, and the binary document its last fetch answered, if
// one did (fileText).
type sentinelPage struct {
	*vigil.Resource
	File string
}

// sentinelPages returns the pages that the store has of urls (a page
// never fetched has none), in their order, and the failure of the last
// fetch of the first whose last fetch failed (vigil.Version.Failed): nil
// when every page's last fetch succeeded, or none was fetched. A page
// that answered a binary document (a PDF, an image: vigil.Version.Binary)
// has not failed, though its version has an error saying why it is not
// read. Its Since is the sentinel's state's FailingSince[url] where it
// has it. A page whose last fetch succeeded has failed all the same where
// the state says why the sentinel's last check of it failed
// (SentinelState.CheckErrors: a site's check cut at its claim's lease),
// which no version records. A URL the store refuses (EINVALID: one
// vigil.CanonicalURL refuses, which a stored sentinel may keep) is
// skipped as one never fetched is; a read that fails otherwise is skipped
// too, and said in the error returned with what the others gave: one
// page that cannot be read does not hide the others.
func sentinelPages(ctx context.Context, st vigil.Store, urls []string, state SentinelState) ([]*sentinelPage, *FetchError, error) {
	since := state.FailingSince
	var pages []*sentinelPage
	var failed *FetchError
	var errs []error
	for _, u := range urls {
		res, v, err := st.LatestVersionByURL(ctx, u)
		switch code := vigil.ErrorCode(err); {
		case code == vigil.ENOTFOUND || code == vigil.EINVALID:
			continue
		case err != nil:
			errs = append(errs, fmt.Errorf("read the last fetch of %s: %w", vigil.RedactURL(u), err))
			continue
		}
		pg := &sentinelPage{Resource: res}
		if v != nil {
			pg.File = fileText(v)
		}
		pages = append(pages, pg)
		switch {
		case failed != nil:
		case v != nil && v.Failed():
			failed = &FetchError{Since: v.FetchedAt, Message: v.Error}
			if t := since[u]; !t.IsZero() {
				failed.Since = t
			}
		case state.CheckErrors[u] != "" && !since[u].IsZero():
			failed = &FetchError{Since: since[u], Message: state.CheckErrors[u]}
		}
	}
	return pages, failed, errors.Join(errs...)
}

// checkedURLs returns the pages of a sentinel as its checked form lists
// them (a site sentinel's start page), read alone (spec.CheckedURLs): a
// stored form that does not decode whole (one that cannot be checked, a
// change type this release does not know) lists its pages all the same,
// as vigil sentinel list does; none if even they do not read.
func checkedURLs(sen *vigil.Sentinel) []string {
	urls, err := spec.CheckedURLs(sen.Spec)
	if err != nil {
		return nil
	}
	return urls
}

// LastFetchError returns the failure of the last fetch of the first of
// sen's pages (in the order of its checked form) whose last fetch failed,
// the one the dashboard shows, failing since when the sentinel's state
// says (SentinelState.FailingSince), or the failure of its last check of
// one that no version records (SentinelState.CheckErrors); nil when every
// page's last fetch and check succeeded, or none was fetched yet. A page
// whose read fails is passed over: the error says so, returned with the
// failure of the others.
func LastFetchError(ctx context.Context, st vigil.Store, sen *vigil.Sentinel, state SentinelState) (*FetchError, error) {
	_, failed, err := sentinelPages(ctx, st, checkedURLs(sen), state)
	return failed, err
}
