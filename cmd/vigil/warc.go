package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warc"
	"github.com/vigil-web/vigil/internal/warehouse"
)

func init() {
	register(&command{
		name:    "export warc",
		summary: "write the warehouse's versions as WARC 1.1 records (gzip per record) to stdout",
		run:     runExportWARC,
	})
	register(&command{
		name:    "import warc",
		summary: "read WARC response and revisit records into the warehouse",
		run:     runImportWARC,
	})
}

// fetchDurationField carries a version's fetch duration, which HTTP headers
// have no place for (an extension field, as WARC 1.1 section 5 allows).
const fetchDurationField = "Vigil-Fetch-Duration"

func runExportWARC(ctx context.Context, env *environment, args []string) (int, error) {
	fs := newFlags(env, "export warc", "--resource URL | --all [--since TIME] [--data DIR] > out.warc.gz")
	sf := addStoreFlags(fs, env)
	resURL := fs.String("resource", "", "export the versions of this URL")
	all := fs.Bool("all", false, "export every resource")
	since := fs.String("since", "", "only versions fetched at or after this time (RFC 3339 or YYYY-MM-DD)")
	if help, err := parseFlags(fs, args); help || err != nil {
		return exitOK, err
	}
	if (*resURL == "") == !*all || fs.NArg() > 0 {
		fs.Usage()
		return exitError, errUsageShown
	}
	var sinceT time.Time
	if *since != "" {
		t, err := warc.ParseDate(*since)
		if err != nil {
			return exitError, fmt.Errorf("--since: want RFC 3339 or YYYY-MM-DD, got %q", *since)
		}
		sinceT = t
	}
	st, err := openExistingStore(ctx, *sf.data, *sf.postgres)
	if err != nil {
		return exitError, err
	}
	defer st.Close()
	wh, err := openWarehouse(st, warehouse.Options{})
	if err != nil {
		return exitError, err
	}
	var resources []*vigil.Resource
	if *all {
		resources, _, err = st.FindResources(ctx, vigil.ResourceFilter{})
	} else {
		// A host spelt in Unicode is the resource of its punycode form.
		var target string
		if target, err = asciiHost(*resURL); err == nil {
			var r *vigil.Resource
			r, err = st.FindResourceByURL(ctx, target)
			resources = []*vigil.Resource{r}
		}
	}
	if err != nil {
		return exitError, err
	}
	bw := bufio.NewWriterSize(env.stdout, 1<<16)
	ex := &warcExporter{wh: wh, st: st, w: warc.NewWriter(bw)}
	if err := ex.warcinfo(); err != nil {
		return exitError, err
	}
	for _, r := range resources {
		if err := ex.resource(ctx, r, sinceT); err != nil {
			return exitError, err
		}
	}
	if err := bw.Flush(); err != nil {
		return exitError, err
	}
	fmt.Fprintf(env.stderr, "exported %d responses and %d revisits of %d resources (%d failed fetches have no record)\n",
		ex.responses, ex.revisits, len(resources), ex.skipped)
	return exitOK, nil
}

type warcExporter struct {
	wh                           *warehouse.Warehouse
	st                           vigil.Store
	w                            *warc.Writer
	infoID                       string
	responses, revisits, skipped int
}

func (ex *warcExporter) warcinfo() error {
	ex.infoID = warc.NewID()
	block := "software: Vigil (github.com/vigil-web/vigil)\r\n" +
		"format: WARC File Format 1.1\r\n" +
		"conformsTo: http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\n" +
		"description: versions exported from a Vigil web warehouse\r\n"
	return ex.w.Write(&warc.Record{Header: warc.Header{
		{Name: warc.FieldType, Value: warc.TypeWarcinfo},
		{Name: warc.FieldRecordID, Value: warc.BracketID(ex.infoID)},
		{Name: warc.FieldDate, Value: warc.FormatDate(time.Now())},
		{Name: warc.FieldContentType, Value: "application/warc-fields"},
	}, Block: []byte(block)})
}

// httpHeader reconstructs the response header from a version's metadata.
func httpHeader(v *vigil.Version) http.Header {
	h := http.Header{}
	h.Set("Date", v.FetchedAt.UTC().Format(http.TimeFormat))
	if v.ContentType != "" {
		ct := v.ContentType
		if v.Charset != "" {
			ct = mime.FormatMediaType(v.ContentType, map[string]string{"charset": v.Charset})
			if ct == "" {
				ct = v.ContentType
			}
		}
		h.Set("Content-Type", ct)
	}
	if v.ETag != "" {
		h.Set("ETag", v.ETag)
	}
	if !v.LastModified.IsZero() {
		h.Set("Last-Modified", v.LastModified.UTC().Format(http.TimeFormat))
	}
	return h
}

func (ex *warcExporter) resource(ctx context.Context, r *vigil.Resource, since time.Time) error {
	const page = 500
	var prev *vigil.Version
	var prevID string
	for off := 0; ; off += page {
		vs, _, err := ex.st.FindVersions(ctx, vigil.VersionFilter{ResourceID: r.ID, Since: since, Offset: off, Limit: page})
		if err != nil {
			return err
		}
		for _, v := range vs {
			if v.Error != "" || v.Status == 0 {
				ex.skipped++
				continue
			}
			if err := ex.version(ctx, r, v, prev, prevID); err != nil {
				return fmt.Errorf("%s version %d: %w", r.URL, v.Seq, err)
			}
			if prev == nil || prev.ContentHash != v.ContentHash {
				prev, prevID = v, responseID(r, v)
			}
		}
		if len(vs) < page {
			return nil
		}
	}
}

// recordID derives a record's id from its URL, fetch time and kind, so
// that exporting the same version again (from this store or one it was
// imported into) gives the same id.
func recordID(r *vigil.Resource, v *vigil.Version, kind string) string {
	return warc.NameID(r.URL + " " + warc.FormatDate(v.FetchedAt) + " " + kind)
}

func responseID(r *vigil.Resource, v *vigil.Version) string { return recordID(r, v, "response") }

func (ex *warcExporter) version(ctx context.Context, r *vigil.Resource, v, prev *vigil.Version, prevID string) error {
	date := warc.FormatDate(v.FetchedAt)
	common := warc.Header{
		{Name: warc.FieldDate, Value: date},
		{Name: warc.FieldTargetURI, Value: r.URL},
		{Name: warc.FieldWarcinfoID, Value: warc.BracketID(ex.infoID)},
	}
	if v.FetchDuration > 0 {
		common = append(common, warc.Field{Name: fetchDurationField, Value: v.FetchDuration.String()})
	}
	h := httpHeader(v)
	if prev != nil && prev.ContentHash == v.ContentHash {
		// Identical to the previous version: a revisit with the HTTP header
		// only, pointing at the response that holds the payload.
		body, err := ex.wh.Body(ctx, v.ID)
		if err != nil {
			return err
		}
		hdr := append(warc.Header{
			{Name: warc.FieldType, Value: warc.TypeRevisit},
			{Name: warc.FieldRecordID, Value: warc.BracketID(recordID(r, v, "revisit"))},
			{Name: warc.FieldProfile, Value: warc.ProfileIdenticalPayload},
			{Name: warc.FieldRefersTo, Value: warc.BracketID(prevID)},
			{Name: warc.FieldRefersToURI, Value: r.URL},
			{Name: warc.FieldRefersToDate, Value: warc.FormatDate(prev.FetchedAt)},
			{Name: warc.FieldPayloadDigest, Value: warc.Digest(body)},
			{Name: warc.FieldContentType, Value: "application/http;msgtype=response"},
		}, common...)
		ex.revisits++
		return ex.w.Write(&warc.Record{Header: hdr, Block: warc.HTTPResponseHead(v.Status, h, len(body))})
	}
	body, err := ex.wh.Body(ctx, v.ID)
	if err != nil {
		return err
	}
	id := responseID(r, v)
	req, err := warc.HTTPRequest(r.URL, "Vigil")
	if err != nil {
		return err
	}
	if err := ex.w.Write(&warc.Record{Header: append(warc.Header{
		{Name: warc.FieldType, Value: warc.TypeRequest},
		{Name: warc.FieldRecordID, Value: warc.BracketID(recordID(r, v, "request"))},
		{Name: warc.FieldConcurrentTo, Value: warc.BracketID(id)},
		{Name: warc.FieldContentType, Value: "application/http;msgtype=request"},
	}, common[:3]...), Block: req}); err != nil {
		return err
	}
	head := warc.HTTPResponseHead(v.Status, h, len(body))
	ex.responses++
	return ex.w.Write(&warc.Record{Header: append(warc.Header{
		{Name: warc.FieldType, Value: warc.TypeResponse},
		{Name: warc.FieldRecordID, Value: warc.BracketID(id)},
		{Name: warc.FieldPayloadDigest, Value: warc.Digest(body)},
		{Name: warc.FieldContentType, Value: "application/http;msgtype=response"},
	}, common...), Block: append(head, body...)})
}

func runImportWARC(ctx context.Context, env *environment, args []string) (int, error) {
	fs := newFlags(env, "import warc", "[--data DIR] FILE (.warc or .warc.gz; - for stdin)")
	sf := addStoreFlags(fs, env)
	noVerify := fs.Bool("no-verify", false, "do not check WARC-Block-Digest (sha1) against each block")
	if help, err := parseFlags(fs, args); help || err != nil {
		return exitOK, err
	}
	if err := wantArgs(fs, 1); err != nil {
		return exitError, err
	}
	var in io.Reader = env.stdin
	if name := fs.Arg(0); name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return exitError, err
		}
		defer f.Close()
		in = f
	}
	st, err := openStore(ctx, *sf.data, *sf.postgres)
	if err != nil {
		return exitError, err
	}
	defer st.Close()
	wh, err := openWarehouse(st, warehouse.Options{})
	if err != nil {
		return exitError, err
	}
	n, skipped, err := importWARC(ctx, wh, in, !*noVerify, env.stderr)
	fmt.Fprintf(env.stderr, "imported %d versions; skipped %d records\n", n, skipped)
	if err != nil {
		return exitError, err
	}
	return exitOK, nil
}

// importWARC reads response and revisit records into wh. Other record
// types (warcinfo, request, metadata...) are skipped, as are records for
// URLs that are not http(s), revisits whose original is not in the file,
// and records no newer than the newest version the store has of their URL:
// a version is appended to its page's history, which a file imported twice
// would double, and an older record cannot go in its middle. A revisit of
// a response skipped so reads the body of the version stored at the
// response's time.
func importWARC(ctx context.Context, wh *warehouse.Warehouse, in io.Reader, verify bool, log io.Writer) (imported, skipped int, err error) {
	r, err := warc.NewReader(in)
	if err != nil {
		return 0, 0, err
	}
	r.Verify = verify
	bodies := map[string]int64{}       // response record id -> version id
	pages := map[string]*pageHistory{} // by canonical URL: the store read once a page
	stale := 0
	defer func() {
		if stale > 0 {
			fmt.Fprintf(log, "skipped %d records no newer than the history the store holds of their URL (imported before, or out of order)\n", stale)
		}
	}()
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return imported, skipped, nil
		}
		if err != nil {
			return imported, skipped, err
		}
		typ := rec.Type()
		if typ != warc.TypeResponse && typ != warc.TypeRevisit {
			skipped++
			continue
		}
		if ct := rec.Header.Get(warc.FieldContentType); !strings.Contains(ct, "http") {
			skipped++
			continue
		}
		// A host spelt in Unicode (an IRI) is its page's punycode form;
		// a host IDNA refuses is skipped, as other invalid URLs are.
		target, err := asciiHost(rec.Header.Get(warc.FieldTargetURI))
		canonical := ""
		if err == nil {
			canonical, err = vigil.CanonicalURL(target)
		}
		if err != nil {
			skipped++
			continue
		}
		date, err := rec.Date()
		if err != nil {
			return imported, skipped, err
		}
		page := pages[canonical]
		if page == nil {
			if page, err = readPageHistory(ctx, wh.Store(), target); err != nil {
				return imported, skipped, err
			}
			pages[canonical] = page
		}
		if !fetchedAfter(date, page.newest) {
			if typ == warc.TypeResponse {
				// A revisit further on may refer to it.
				if v, err := page.fetchedAt(ctx, wh.Store(), date); err != nil {
					return imported, skipped, err
				} else if v != nil {
					bodies[rec.ID()] = v.ID
				}
			}
			stale++
			skipped++
			continue
		}
		status, h, payload, err := warc.ParseHTTPResponse(rec.Block)
		if err != nil {
			return imported, skipped, fmt.Errorf("record %s: %w", rec.ID(), err)
		}
		if typ == warc.TypeResponse {
			if payload, err = warc.DecodePayload(h, payload); err != nil {
				return imported, skipped, fmt.Errorf("record %s: %w", rec.ID(), err)
			}
		}
		if typ == warc.TypeRevisit {
			vid, ok := bodies[warc.StripID(rec.Header.Get(warc.FieldRefersTo))]
			if !ok {
				fmt.Fprintf(log, "skipping revisit %s: its original %s is not in the file\n", rec.ID(), rec.Header.Get(warc.FieldRefersTo))
				skipped++
				continue
			}
			if payload, err = wh.Body(ctx, vid); err != nil {
				return imported, skipped, err
			}
		}
		f := &warehouse.Fetch{URL: target, FetchedAt: date, Status: status, ETag: h.Get("ETag"), Body: payload}
		if lm := h.Get("Last-Modified"); lm != "" {
			if t, err := http.ParseTime(lm); err == nil {
				f.LastModified = t
			}
		}
		if ct := h.Get("Content-Type"); ct != "" {
			if mt, params, err := mime.ParseMediaType(ct); err == nil {
				f.ContentType, f.Charset = mt, params["charset"]
			} else {
				f.ContentType = ct
			}
		}
		if d, err := time.ParseDuration(rec.Header.Get(fetchDurationField)); err == nil && d > 0 {
			f.FetchDuration = d
		}
		v, err := wh.Put(ctx, f)
		if err != nil {
			return imported, skipped, fmt.Errorf("record %s: %w", rec.ID(), err)
		}
		page.resource, page.newest = v.ResourceID, v.FetchedAt
		if typ == warc.TypeResponse {
			bodies[rec.ID()] = v.ID
		}
		imported++
	}
}

// pageHistory is what importWARC knows of a page's history in the store:
// its resource (0 if none) and when its newest version was fetched.
type pageHistory struct {
	resource int64
	newest   time.Time
}

// readPageHistory reads the history the store holds of url.
func readPageHistory(ctx context.Context, st warehouse.Store, url string) (*pageHistory, error) {
	r, err := st.FindResourceByURL(ctx, url)
	if vigil.ErrorCode(err) == vigil.ENOTFOUND {
		return &pageHistory{}, nil
	} else if err != nil {
		return nil, err
	}
	v, err := st.LatestVersion(ctx, r.ID)
	if vigil.ErrorCode(err) == vigil.ENOTFOUND {
		return &pageHistory{resource: r.ID}, nil
	} else if err != nil {
		return nil, err
	}
	return &pageHistory{resource: r.ID, newest: v.FetchedAt}, nil
}

// fetchedAt returns the page's version fetched at t, or nil.
func (h *pageHistory) fetchedAt(ctx context.Context, st warehouse.Store, t time.Time) (*vigil.Version, error) {
	if h.resource == 0 {
		return nil, nil
	}
	v, err := st.VersionAt(ctx, h.resource, t.Truncate(time.Microsecond).Add(time.Microsecond-1))
	if vigil.ErrorCode(err) == vigil.ENOTFOUND {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	if fetchedAfter(t, v.FetchedAt) {
		return nil, nil
	}
	return v, nil
}

// fetchedAfter reports whether fetch time a comes after b at the
// microsecond, the precision PostgreSQL keeps: a file whose times have
// nanoseconds, imported twice into it, is imported once.
func fetchedAfter(a, b time.Time) bool {
	return a.Truncate(time.Microsecond).After(b.Truncate(time.Microsecond))
}
