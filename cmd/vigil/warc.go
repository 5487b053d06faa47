package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"os"
	"strconv"
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
		summary: "read WARC response, resource and revisit records (or ARC records) into the warehouse, all or nothing",
		run:     runImportWARC,
	})
}

// fetchDurationField carries a version's fetch duration, which HTTP headers
// have no place for (an extension field, as WARC 1.1 section 5 allows).
const fetchDurationField = "Vigil-Fetch-Duration"

// fetchedFromField carries the final URL a version's body was read from
// when a redirect led away from the page's (vigil.Version.URL), against
// which its relative links resolve: the record's WARC-Target-URI is the
// page's URL, under which the version is stored (an extension field, as
// fetchDurationField). A revisit carries its own: the same body may have
// been read from another URL than its original's. It is the URL stored,
// exact, not the API's (vigil.Version.ShownURL, its query's values hidden):
// an archive replays the page as it was read, vigil import warc reads it
// back as the version's URL, and only the store's operator exports it.
const fetchedFromField = "Vigil-Fetched-From"

// exportWARCUsage says what is wrong with export warc's command line, or
// returns "": one of --resource URL and --all, and no argument.
func exportWARCUsage(resURL string, all bool, args []string) string {
	switch {
	case len(args) > 0:
		return fmt.Sprintf("unexpected argument %q (the URL follows --resource)", args[0])
	case resURL == "" && !all:
		return "give --resource URL or --all"
	case resURL != "" && all:
		return "give --resource URL or --all, not both"
	}
	return ""
}

func runExportWARC(ctx context.Context, env *environment, args []string) (code int, err error) {
	fs := newDescribedFlags(env, "export warc", "--resource URL | --all [--since TIME] [--data DIR] > out.warc.gz",
		"Export writes the versions of one page (--resource) or of every page\n"+
			"(--all) of the store to standard output as WARC 1.1 records, one gzip\n"+
			"member per record: a request and a response a version, a revisit for a\n"+
			"version identical to the one before; a fetch that failed has none.\n"+
			"--since keeps those fetched at or after a time. It says on standard\n"+
			"error how many it wrote. The exit status is 0, or 2 on trouble.")
	sf := addStoreFlags(fs, env)
	resURL := fs.String("resource", "", "export the versions of this URL")
	all := fs.Bool("all", false, "export every resource")
	since := fs.String("since", "", "only versions fetched at or after this time (RFC 3339 or YYYY-MM-DD)")
	if help, err := parseFlags(fs, args); help || err != nil {
		return exitOK, err
	}
	if problem := exportWARCUsage(*resURL, *all, fs.Args()); problem != "" {
		fmt.Fprintf(fs.Output(), "vigil export warc: %s\n", problem)
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
	defer closeStore(st, &code, &err)
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
		if target, err = urlArg(*resURL); err == nil {
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
	files := ""
	if ex.files > 0 {
		// Versions of binary documents (vigil.Version.Binary), whose
		// bodies are not kept: no failures.
		files = "; " + plural(ex.files, "1 file Vigil does not read has none: its body is not kept",
			strconv.Itoa(ex.files)+" files Vigil does not read have none: their bodies are not kept")
	}
	fmt.Fprintf(env.stderr, "exported %s and %s of %s (%s no record%s)\n",
		count(ex.responses, "response"), count(ex.revisits, "revisit"), count(len(resources), "resource"),
		plural(ex.skipped, "1 failed fetch has", strconv.Itoa(ex.skipped)+" failed fetches have"), files)
	return exitOK, nil
}

type warcExporter struct {
	wh                           *warehouse.Warehouse
	st                           vigil.Store
	w                            *warc.Writer
	infoID                       string
	responses, revisits, skipped int
	files                        int // versions of binary documents, whose bodies are not kept
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
			if v.Binary() {
				ex.files++
				continue
			}
			if v.Error != "" || v.Status == 0 {
				ex.skipped++
				continue
			}
			if err := ex.version(ctx, r, v, prev, prevID); err != nil {
				return fmt.Errorf("%s version %d: %w", vigil.RedactURL(r.URL), v.Seq, err)
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
	if v.URL != "" {
		common = append(common, warc.Field{Name: fetchedFromField, Value: v.URL})
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

func runImportWARC(ctx context.Context, env *environment, args []string) (code int, err error) {
	fs := newDescribedFlags(env, "import warc", "[--data DIR] [--keep-partial] FILE... (.warc, .warc.gz, .arc or .arc.gz, told by content; - for stdin)",
		"Import stores the response, resource and revisit records of http(s)\n"+
			"URLs of a WARC or ARC file, of any tool, as versions of their pages, in\n"+
			"the order of their dates, and skips the other records (warcinfo,\n"+
			"request, metadata) and those no newer than the store's history of their\n"+
			"page. The files of a crawl are imported together, in their order, and\n"+
			"a record split in segments across them (WARC 1.1) is joined. It is\n"+
			"all or nothing, in one transaction (--keep-partial keeps\n"+
			"what was stored before a failure), and refuses to start while vigil\n"+
			"serve runs on the SQLite store. A record it cannot import is named by\n"+
			"its number and offset, the others imported, and the exit status is 2,\n"+
			"as on any trouble; 0 otherwise.")
	sf := addStoreFlags(fs, env)
	noVerify := fs.Bool("no-verify", false, "do not check WARC-Block-Digest (sha1) against each block")
	keepPartial := fs.Bool("keep-partial", false, "keep the records imported before a failure (a file cut short, an interrupt, a store error); by default an import is all or nothing")
	if help, err := parseFlags(fs, args); help || err != nil {
		return exitOK, err
	}
	if fs.NArg() == 0 {
		fmt.Fprintf(fs.Output(), "vigil import warc: want 1 argument or more, got 0\n")
		fs.Usage()
		return exitError, errUsageShown
	}
	// Each file is opened when its turn comes (a crawl may have
	// thousands), but one that cannot be is refused before any is read.
	var files []warcFile
	stdin := false
	for _, name := range fs.Args() {
		if name == "-" {
			if stdin {
				return exitError, errors.New("-: standard input given twice")
			}
			stdin = true
			files = append(files, warcFile{name: displayName(name), in: env.stdin})
			continue
		}
		f, err := openFile(name)
		if err != nil {
			return exitError, err
		}
		f.Close()
		files = append(files, warcFile{name: displayName(name), open: func() (*os.File, error) { return openFile(name) }})
	}
	if *sf.postgres == "" && !*keepPartial {
		// An import in one transaction holds SQLite's write lock from its
		// first version to its last: the daemon's checks would wait for it
		// past their busy timeout and fail. It refuses beside a daemon,
		// and holds the import lock that a daemon started meanwhile, or
		// another import, refuses beside.
		unlock, err := lockImport(*sf.data)
		if err != nil {
			return exitError, err
		}
		defer unlock()
	} else if *sf.postgres == "" {
		// Record by record beside a daemon, but not beside an import in
		// one transaction: each write would wait for it and fail.
		if err := importHeld(*sf.data); err != nil {
			return exitError, err
		}
	}
	st, err := openStore(ctx, *sf.data, *sf.postgres)
	if err != nil {
		return exitError, err
	}
	defer closeStore(st, &code, &err)
	wh, err := openWarehouse(st, warehouse.Options{})
	if err != nil {
		return exitError, err
	}
	n, skipped, err := importWARCFiles(ctx, wh, files, warcImportOptions{verify: !*noVerify, keepPartial: *keepPartial}, env.stderr)
	fmt.Fprintln(env.stderr, importSummary(n, skipped, err))
	if err != nil {
		return exitError, err
	}
	return exitOK, nil
}

// importSummary is the last line of vigil import warc, before its error
// if any: the n versions importWARC imported and the records it
// skipped, with their kinds ("skipped 12 records: 10 request, 2
// metadata"). After a commit whose outcome the store does not know
// (vigil.ErrCommitUnknown in err's chain) the store holds all n or none,
// and the line says so.
func importSummary(n int, skipped skips, err error) string {
	what := "skipped " + count(skipped.total(), "record")
	if skipped.total() > 0 {
		what += ": " + skipped.String()
	}
	if errors.Is(err, vigil.ErrCommitUnknown) {
		return fmt.Sprintf("imported %s or none (the commit's outcome is not known); %s", count(n, "version"), what)
	}
	return fmt.Sprintf("imported %s; %s", count(n, "version"), what)
}
