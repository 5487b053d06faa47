package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/andybalholm/brotli"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warc"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/spec"
)

// importWARC reads response, resource and revisit records into wh. Other
// record types (warcinfo, request, metadata...) are skipped, as are records
// for URLs that are not http(s) (dns:, ftp:, Webrecorder's urn:pageinfo:...).
// A target URI is read as a sentinel's URL is (its Unicode host in
// punycode, its fragment dropped), in angle brackets or not. A resource
// record (a document without HTTP headers: Webrecorder's, wget's for some
// items, WARC 1.1 tools' for files) is a version as a response is, of
// status 200 and the type its record's Content-Type gives, and can be a
// revisit's original; one whose Content-Type is application/http holds
// an HTTP message, not a document, and is read as a response record is
// (or skipped, a request).
//
// The records are imported in the order of their WARC-Date, whatever their
// order in the file: they are read first into a temporary file (in
// os.TempDir), and then read from it in that order. A version is appended
// to its page's history, so a record no newer than the newest version the
// store has of its URL is skipped: a file imported twice adds nothing, and
// an older record cannot go in the middle of a history. A revisit of a
// response (or resource) skipped so reads the body of the version stored
// at the response's time. A revisit without WARC-Refers-To finds its
// original by its payload digest or its WARC-Refers-To-Target-URI and
// WARC-Refers-To-Date.
//
// A response's payload is stored decoded (its chunks joined, its gzip,
// deflate or br undone), as a fetch stores a body.
//
// name is the file's name as the user gave it (<stdin> for standard
// input): what importWARC says of a record, or returns of one, or of a
// file it cannot read, begins with it.
//
// A record that cannot be imported (no target URI, a bad date, URL or HTTP
// message, a coding not undone or that fails to decode, a record its
// writer truncated, one split in segments (WARC 1.1 section 6.7) whose
// segments do not join: one missing, or past importMaxBlock together,
// those that do being joined into their first by warc.Joiner; a block
// that fails its digest, a block longer than importMaxBlock or a payload
// that decodes to more, a revisit whose original is neither in the file
// nor in the store) is named on log after the file by its number and
// offset (and its gzip member's offset in the file, warc.Reader.Where),
// and the others are imported; importWARC then returns an error saying
// how many there were. The records so named are the first maxNamed in
// the file, named in its order once the import ends (they are met in
// the order of their dates), and the others are counted, a line for each
// kind of problem (badRecord.kind), so that a file of thousands of them
// does not flood the terminal. Such records are not failures: the others
// are imported.
//
// An ARC file (.arc, .arc.gz) is read as WARC is: warc.Reader tells it by
// its first bytes and returns its records as WARC records.
//
// An import is all or nothing: the records are stored in one transaction
// of the store (vigil.Transactor), committed once the last is stored. A
// file that cannot be read further (cut short, not WARC) has nothing
// imported, and importWARC returns the reader's error, which names the
// record it cannot read; so does an import interrupted (ctx done: it
// stops at the next record, its temporary file removed) or one whose
// store fails: what it stored is rolled back, and no reader of the
// store ever saw it. With opt.keepPartial, the records before the one
// that cannot be read, or before the interrupt or the store's error, are
// imported and stay, each committed as it is stored, as before. A
// commit whose outcome the store does not know (vigil.ErrCommitUnknown:
// the connection to PostgreSQL lost as it committed) stored all the
// versions or none: importWARC returns how many there are and an error
// saying so; importing the file again adds those the store lacks, and
// nothing if it holds them.
func importWARC(ctx context.Context, wh *warehouse.Warehouse, name string, in io.Reader, opt warcImportOptions, log io.Writer) (imported int, skipped skips, err error) {
	return importWARCFiles(ctx, wh, []warcFile{{name: name, in: in}}, opt, log)
}

// warcFile is a file import warc reads: its name as the user gave it
// (<stdin> for standard input), and its content, or how to open it when
// its turn comes.
type warcFile struct {
	name string
	in   io.Reader
	open func() (*os.File, error) // when in is nil
}

// importWARCFiles is importWARC of the files of one import, a crawl's
// files in their order: their records are imported together, in the
// order of their dates, in one transaction, and a record split in
// segments across them (its first segments at the end of one file, the
// others in the next, why WARC 1.1 splits records) is joined, whatever
// the order the files are named in (warc.Joiner), and named
// by its first segment's file, number and id when the files leave its
// chain incomplete or broken. A record is named by its file; a file that
// cannot be read further is as one file's: nothing is imported, or with
// opt.keepPartial the records read before it, the files after it not
// read.
func importWARCFiles(ctx context.Context, wh *warehouse.Warehouse, files []warcFile, opt warcImportOptions, log io.Writer) (imported int, skipped skips, err error) {
	im := &warcImport{wh: wh, bodies: map[string]int64{}, byDigest: map[string]int64{}, pages: map[string]*pageHistory{}}
	var names []string
	for _, f := range files {
		names = append(names, f.name)
	}
	name := strings.Join(names, ", ")
	var readErr error
	defer func() {
		im.failures.write(log, im.fileOf)
		if readErr != nil && im.failures.total > 0 {
			fmt.Fprintf(log, "%s\n", im.failures.summary())
		}
		if im.undated > 0 {
			fmt.Fprintf(log, "%s: skipped %s dated where no store keeps a time (before 1677-09-21 or after 2262-04-11), the first %s\n",
				im.fileOf(im.undatedN), count(im.undated, "record"), im.firstUndated)
		}
		if im.stale > 0 {
			fmt.Fprintf(log, "skipped %s no newer than the history the store holds of %s URL (imported before, or out of order)\n", count(im.stale, "record"), plural(im.stale, "its", "their"))
		}
	}()
	sp, err := newSpool()
	if err != nil {
		return 0, nil, err
	}
	defer sp.remove()
	joiner := &warc.Joiner{MaxBlock: importMaxBlock}
	for _, f := range files {
		im.files = append(im.files, importedFile{f.name, im.read})
		joiner.File = f.name
		if readErr, err = im.readFile(ctx, f, opt, sp, joiner); err != nil {
			return 0, im.skipped, err
		} else if readErr != nil {
			break
		}
	}
	// The records whose last segments the files do not hold.
	for _, err := range joiner.End() {
		if segErr := (*warc.SegmentError)(nil); errors.As(err, &segErr) {
			im.failures.add(segErr.Number, badPart, segErr.Error())
		}
	}
	if readErr != nil && !opt.keepPartial {
		if len(sp.records) == 0 {
			return 0, im.skipped, readErr // nothing before it to import
		}
		return 0, im.skipped, fmt.Errorf("%w; nothing imported (--keep-partial imports the records before it)", readErr)
	}
	each := func(wh *warehouse.Warehouse) error {
		im.wh = wh
		return sp.each(func(rec *warc.Record, s spooled) error {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("interrupted before %s: %s (%s): %w", im.fileOf(s.n), s.where, rec.ID(), err)
			}
			var bad *badRecord
			if err := im.record(ctx, rec); errors.As(err, &bad) {
				im.failures.add(s.n, bad.kind, fmt.Sprintf("%s (%s): %s", s.where, rec.ID(), bad))
			} else if err != nil {
				return fmt.Errorf("%s: %s (%s): %w", im.fileOf(s.n), s.where, rec.ID(), err)
			}
			return nil
		})
	}
	if opt.keepPartial {
		err = each(wh)
	} else if tr, ok := wh.Store().(vigil.Transactor); !ok {
		return 0, im.skipped, fmt.Errorf("this store cannot import in one transaction; --keep-partial imports record by record")
	} else if err = tr.InTransaction(ctx, func(tx vigil.TxStore) error { return each(wh.Over(tx)) }); errors.Is(err, vigil.ErrCommitUnknown) {
		// The commit's outcome is not known (PostgreSQL's connection
		// lost as it committed): all of the versions, or none.
		return im.imported, im.skipped, fmt.Errorf("%w; the store holds all %s or none: importing the file again adds what it lacks",
			err, count(im.imported, "version"))
	} else if err != nil {
		if ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
			// Cancelled during a write: the store's error says less.
			err = fmt.Errorf("interrupted: %w (%v)", ctx.Err(), err)
		}
		im.imported = 0
		return 0, im.skipped, fmt.Errorf("%w; nothing imported (the store is as it was)", err)
	}
	switch {
	case err != nil:
		return im.imported, im.skipped, err
	case readErr != nil:
		return im.imported, im.skipped, readErr // the failures said by the deferred function
	case im.failures.total > 0:
		return im.imported, im.skipped, fmt.Errorf("%s: %s", name, im.failures.summary())
	}
	return im.imported, im.skipped, nil
}

// readFile reads the records of f into sp, those split in segments
// through joiner, numbering them after those of the files before it
// (im.read): a record's number is its place in the import, by which
// im.fileOf finds its file. It returns the error of a file that cannot
// be read further (the reader's, naming the record), or another error,
// which ends the import (interrupted, the spool failing).
func (im *warcImport) readFile(ctx context.Context, f warcFile, opt warcImportOptions, sp *spool, joiner *warc.Joiner) (readErr, err error) {
	// The reader's errors name the record; "warc: " adds nothing to the
	// command's name, the file's does.
	inFile := func(err error) error { return fmt.Errorf("%s: %s", f.name, strings.TrimPrefix(err.Error(), "warc: ")) }
	in := f.in
	if in == nil {
		fh, err := f.open()
		if err != nil {
			return err, nil
		}
		defer fh.Close()
		in = fh
	}
	r, err := warc.NewReader(in)
	if err != nil {
		return inFile(err), nil
	}
	r.Verify = opt.verify
	r.MaxBlock = importMaxBlock
	base := im.read
	defer func() { im.read = base + r.Number() }()
	for {
		if err := ctx.Err(); err != nil {
			// Interrupted: the spool is removed, nothing imported.
			return nil, fmt.Errorf("interrupted reading the file %s, nothing imported: %w", f.name, err)
		}
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if errors.Is(err, warc.ErrDigest) || errors.Is(err, warc.ErrTooLong) {
			kind := badDigest
			if errors.Is(err, warc.ErrTooLong) {
				kind = badTooLong
			}
			im.failures.add(base+r.Number(), kind, strings.TrimPrefix(err.Error(), "warc: "))
			continue
		}
		var missing *warc.MissingFieldError
		if errors.As(err, &missing) && rec != nil {
			// Framed by its Content-Length: the records after it are read.
			if missing.Field != warc.FieldType && !importable(rec) {
				im.skipped.add(skipKind(rec))
			} else if missing.Field == warc.FieldDate {
				im.failures.add(base+r.Number(), badDate, strings.TrimPrefix(err.Error(), "warc: "))
			} else {
				im.failures.add(base+r.Number(), badMissing, strings.TrimPrefix(err.Error(), "warc: "))
			}
			continue
		}
		if err != nil {
			return inFile(err), nil
		}
		// A record split in segments is imported joined, once its last
		// segment is read.
		var segErr *warc.SegmentError
		if rec, err = joiner.Add(rec, base+r.Number(), r.Where()); errors.As(err, &segErr) {
			im.failures.add(segErr.Number, badPart, segErr.Error())
			continue
		} else if err != nil {
			return nil, err
		} else if rec == nil {
			continue
		}
		// A record joined is named by its first segment.
		number, where := joiner.Origin()
		if !importable(rec) {
			if why := notHTTPResponse(rec); why != "" {
				// A page's response that holds no response: its
				// page would go missing without a word.
				im.failures.add(number, badHTTP, fmt.Sprintf("%s (%s): %s", where, rec.ID(), why))
				continue
			}
			im.skipped.add(skipKind(rec))
			continue
		}
		at, err := rec.Date()
		if err != nil {
			im.failures.add(number, badDate, fmt.Sprintf("%s (%s): %s", where, rec.ID(), &badRecord{badDate, err}))
			continue
		}
		if !vigil.StorableTime(at) {
			// A date no store keeps (a crawler's clock set wrong): the
			// record is skipped, with a warning, and the others are
			// imported.
			if im.undated == 0 {
				im.undatedN = number
				im.firstUndated = fmt.Sprintf("%s (%s), WARC-Date %s", where, rec.ID(), at.UTC().Format(time.RFC3339))
			}
			im.undated++
			im.skipped.add(skipUndated)
			continue
		}
		var bad *badRecord
		if err := sp.add(rec, spooled{n: number, where: where, at: at, revisit: importType(rec) == warc.TypeRevisit}); errors.As(err, &bad) {
			im.failures.add(number, bad.kind, fmt.Sprintf("%s (%s): %s", where, rec.ID(), bad))
		} else if err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// warcImportOptions are import warc's choices.
type warcImportOptions struct {
	verify      bool // check each WARC-Block-Digest (sha1)
	keepPartial bool // keep the records imported before a failure (--keep-partial)
}

// importMaxBlock is the longest record import warc takes; it names and
// skips a longer one (a video in a crawl). Vigil's fetcher keeps a page of
// up to 20 MiB decoded, so any page it could have fetched fits.
const importMaxBlock = 64 << 20

// importDecoders undo the content codings internal/warc does not know
// itself: br (brotli), which browsers ask for, so that a crawler that
// sends their Accept-Encoding records it. Brotli is an outside
// module; internal/warc reads WARC with the standard library alone, and
// internal/fetch, which decodes fetched bodies with it, is an adapter no
// other adapter imports, so the decoder is passed in here, where they
// meet. DecodePayload reads what it gives no further than importMaxBlock.
var importDecoders = warc.Decoders{
	"br": func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil },
}

// importable reports whether rec is an HTTP response, a resource or a
// revisit of an http(s) URL, a record importWARC imports, or one of them
// without the target URI WARC 1.1 requires of them, which importWARC
// names.
func importable(rec *warc.Record) bool {
	switch typ, ct := rec.Type(), rec.Header.Get(warc.FieldContentType); {
	case typ == warc.TypeResource && !httpMessage(ct):
		// A document as it is, typed by its Content-Type.
	case typ == warc.TypeResource:
		// An HTTP message: a response, or a request, which is skipped;
		// without a msgtype (or with one mime.ParseMediaType refuses),
		// a response if its block starts as one.
		_, params, _ := mime.ParseMediaType(ct)
		if msgtype := strings.ToLower(params["msgtype"]); msgtype != "response" && (msgtype != "" || !bytes.HasPrefix(rec.Block, []byte("HTTP/"))) {
			return false
		}
	case typ != warc.TypeResponse && typ != warc.TypeRevisit:
		return false
	// WARC 1.1 asks for a Content-Type; without one, a block that starts
	// as an HTTP response is one (as warcio reads it). A revisit's empty
	// block stands for its original's header, whatever its type says (a
	// revisit of a resource may give the resource's).
	case typ == warc.TypeRevisit && len(bytes.TrimSpace(rec.Block)) == 0:
	case strings.Contains(strings.ToLower(ct), "http"):
	case ct != "":
		return false
	case bytes.HasPrefix(rec.Block, []byte("HTTP/")):
	default:
		return false
	}
	target := strings.TrimSpace(rec.Header.Get(warc.FieldTargetURI))
	scheme, _, _ := strings.Cut(strings.ToLower(strings.TrimPrefix(target, "<")), ":")
	return target == "" || scheme == "http" || scheme == "https"
}

// importType returns the type importWARC reads rec as, its WARC-Type but
// for a resource record holding an HTTP message (of Content-Type
// application/http), which is read as a response: its block is one, not
// the document.
func importType(rec *warc.Record) string {
	typ := rec.Type()
	if typ == warc.TypeResource && httpMessage(rec.Header.Get(warc.FieldContentType)) {
		return warc.TypeResponse
	}
	return typ
}

// httpMessage reports whether ct, a record's Content-Type, is
// application/http, the type of a block that is an HTTP message.
// notHTTPResponse says why rec, a record importable refuses, is a
// response record of a page (an http or https target) whose block is no
// HTTP response, as WARC has a page's response hold it: typed otherwise
// than application/http, or untyped and not beginning as one; "" for any
// other record.
func notHTTPResponse(rec *warc.Record) string {
	if rec.Type() != warc.TypeResponse {
		return ""
	}
	target := strings.TrimSpace(rec.Header.Get(warc.FieldTargetURI))
	scheme, _, _ := strings.Cut(strings.ToLower(strings.TrimPrefix(target, "<")), ":")
	if scheme != "http" && scheme != "https" {
		return ""
	}
	ct := strings.TrimSpace(rec.Header.Get(warc.FieldContentType))
	switch {
	case strings.Contains(strings.ToLower(ct), "http"), ct == "" && bytes.HasPrefix(rec.Block, []byte("HTTP/")):
		return ""
	case ct == "":
		return "a response record whose block is not an HTTP response (no Content-Type)"
	}
	return fmt.Sprintf("a response record whose block is not an HTTP response (Content-Type %q)", ct)
}

func httpMessage(ct string) bool {
	return vigil.MediaType(ct) == "application/http"
}

// warcImport is the state of one importWARC.
type warcImport struct {
	wh       *warehouse.Warehouse
	failures importFailures          // the records that cannot be imported
	bodies   map[string]int64        // response record id -> version id
	byDigest map[string]int64        // response payload digest (upper case) -> version id
	pages    map[string]*pageHistory // by canonical URL: the store read once a page

	imported, stale int
	skipped         skips
	// undated counts the records skipped for a date no store keeps
	// (vigil.StorableTime), firstUndated names the first of them.
	undated      int
	firstUndated string
	undatedN     int // the first's number
	// read counts the records of the files read so far, files their
	// names and the count before each.
	read  int
	files []importedFile
}

// importedFile is a file of an import, and the number of records read
// before it: its records' numbers in the import follow.
type importedFile struct {
	name   string
	before int
}

// fileOf returns the name of the file of the import's record n.
func (im *warcImport) fileOf(n int) string {
	i := sort.Search(len(im.files), func(i int) bool { return im.files[i].before >= n }) - 1
	return im.files[max(i, 0)].name
}

// badRecord is the error of a record that cannot be imported: importWARC
// names it and goes on to the next. kind is its kind of problem, one of
// the bad... constants, by which importWARC counts the records it does
// not name.
type badRecord struct {
	kind string
	err  error
}

// The kinds of problem of a record that cannot be imported, as importWARC
// counts them: "59 more records not imported: no WARC-Target-URI".
const (
	badDigest   = "a block that fails its digest"
	badTooLong  = "a block longer than import warc takes"
	badDate     = "a bad WARC-Date"
	badMissing  = "no WARC-Type or WARC-Record-ID"
	badHeader   = "a header field that cannot be written back"
	badPart     = "a part of a record (truncated by its writer, or segments that do not join)"
	badNoTarget = "no WARC-Target-URI"
	badTarget   = "a WARC-Target-URI that is not a page's URL"
	badHTTP     = "an HTTP message that does not parse"
	badPayload  = "a payload that does not decode"
	badStore    = "a version the store refuses"
	badOriginal = "a revisit whose original is not found"
)

// Error returns the reason without the prefixes that say where it came
// from ("warc: ", the domain error's code): importWARC says which record.
func (e *badRecord) Error() string {
	if vigil.ErrorCode(e.err) == vigil.EINVALID {
		return vigil.ErrorMessage(e.err)
	}
	return strings.TrimPrefix(e.err.Error(), "warc: ")
}

func bad(kind, format string, args ...any) error {
	return &badRecord{kind, fmt.Errorf(format, args...)}
}

// record imports one importable record, or skips it.
func (im *warcImport) record(ctx context.Context, rec *warc.Record) error {
	typ := importType(rec)
	// A part of a page is no version of it.
	if why := rec.Header.Get(warc.FieldTruncated); why != "" {
		return bad(badPart, "truncated by its writer (WARC-Truncated: %s)", why)
	}
	target := strings.TrimSpace(rec.Header.Get(warc.FieldTargetURI))
	if target == "" {
		return bad(badNoTarget, "no %s", warc.FieldTargetURI)
	}
	if len(target) > 1 && target[0] == '<' && target[len(target)-1] == '>' {
		// The WARC 1.1 grammar's misprint has the URI in angle brackets,
		// and some tools write it so (warcio reads either).
		target = target[1 : len(target)-1]
	}
	// An IRI's Unicode host is written in punycode, as a sentinel's URL is.
	target, err := spec.NormalizeURL(target)
	if err != nil {
		return &badRecord{badTarget, err}
	}
	canonical, err := vigil.CanonicalURL(target)
	if err != nil {
		return &badRecord{badTarget, err}
	}
	date, err := rec.Date()
	if err != nil {
		return &badRecord{badDate, err}
	}
	page, err := im.page(ctx, canonical)
	if err != nil {
		return err
	}
	if !fetchedAfter(date, page.newest) {
		if typ != warc.TypeRevisit {
			// A revisit further on may refer to it.
			if v, err := page.fetchedAt(ctx, im.wh.Store(), date); err != nil {
				return err
			} else if v != nil {
				im.original(rec, v.ID)
			}
		}
		im.stale++
		im.skipped.add(skipStale)
		return nil
	}
	f := &warehouse.Fetch{URL: target, FetchedAt: date}
	if typ == warc.TypeRevisit {
		// A revisit is its original's status, type and validators, with
		// its body, less what its own HTTP header says otherwise: it may
		// have none (an empty block), or a 304 Not Modified's, which
		// stands for the original's answer.
		vid, err := im.revisited(ctx, rec)
		if err != nil {
			return err
		}
		orig, err := im.wh.Store().FindVersionByID(ctx, vid)
		if err != nil {
			return err
		}
		if f.Body, err = im.wh.Body(ctx, vid); err != nil {
			return err
		}
		f.Status, f.ETag, f.LastModified, f.ContentType, f.Charset = orig.Status, orig.ETag, orig.LastModified, orig.ContentType, orig.Charset
		if len(bytes.TrimSpace(rec.Block)) > 0 {
			status, h, _, err := warc.ParseHTTPResponse(rec.Block)
			if err != nil {
				return &badRecord{badHTTP, err}
			}
			if status != http.StatusNotModified {
				f.Status = status
			}
			setFetchHeader(f, h)
		}
	} else if typ == warc.TypeResource {
		// The block is the document, as it was (a tool that writes one
		// has no HTTP header to say it was compressed), of the type the
		// record's Content-Type gives.
		f.Body, f.Status = rec.Block, http.StatusOK
		setFetchHeader(f, http.Header{"Content-Type": {rec.Header.Get(warc.FieldContentType)}})
	} else {
		status, h, payload, err := warc.ParseHTTPResponse(rec.Block)
		if err != nil {
			return &badRecord{badHTTP, err}
		}
		if f.Body, err = warc.DecodePayload(h, payload, importMaxBlock, importDecoders); err != nil {
			return &badRecord{badPayload, err}
		}
		f.Status = status
		setFetchHeader(f, h)
	}
	if d, err := time.ParseDuration(rec.Header.Get(fetchDurationField)); err == nil && d > 0 {
		f.FetchDuration = d
	}
	// The URL the body was read from, if a redirect led away from the
	// page's (vigil.VersionURL keeps none that is not a URL, and none of
	// its credentials).
	f.FinalURL = rec.Header.Get(fetchedFromField)
	v, stored, err := im.wh.PutStored(ctx, f)
	if vigil.ErrorCode(err) == vigil.EINVALID {
		return &badRecord{badStore, err}
	} else if err != nil {
		return err
	}
	if typ != warc.TypeRevisit {
		im.original(rec, v.ID)
	}
	page.resource, page.newest = v.ResourceID, v.FetchedAt
	if !page.appended {
		// The page's history was read before this import's first append
		// to it: another import of the file may have stored versions of it
		// meanwhile, and this one (the store gives the version it holds of
		// the same fetch, rather than a copy). Read again now: in one
		// transaction, the append holds the page's versions until the
		// commit, so that what is read is what the page is.
		page.appended = true
		head, err := im.wh.Store().LatestVersion(ctx, v.ResourceID)
		if err != nil {
			return err
		}
		page.newest = head.FetchedAt
	}
	if !stored {
		// The store held this fetch: another import stored it, and
		// counts it.
		im.stale++
		im.skipped.add(skipStale)
		return nil
	}
	im.imported++
	return nil
}

// setFetchHeader sets the validators, type and charset of f that h
// gives. An ETag h does not give, or gives as no text the warehouse
// stores (warehouse.StorableText: a Latin-1 byte), leaves f's as it is:
// a revisit keeps its original's. A charset that is no text (an RFC 2231
// parameter's %00) is set as h gives it, and stored as none.
func setFetchHeader(f *warehouse.Fetch, h http.Header) {
	if etag := warehouse.StorableText(h.Get("ETag")); etag != "" {
		f.ETag = etag
	}
	if lm := h.Get("Last-Modified"); lm != "" {
		if t, err := http.ParseTime(lm); err == nil {
			f.LastModified = t
		}
	}
	// The type by vigil.MediaType, as the fetcher takes a response's: a
	// malformed parameter (a charset without a value, or two charsets)
	// does not undo it, and loses only the charset, taken from the
	// parameters mime.ParseMediaType takes; a malformed type is as none
	// (a revisit keeps its original's).
	if mt := vigil.MediaType(h.Get("Content-Type")); mt != "" {
		_, params, _ := mime.ParseMediaType(h.Get("Content-Type"))
		f.ContentType, f.Charset = mt, params["charset"]
	}
}

// original notes that response or resource rec is version vid, for the
// revisits that refer to it by its id or its payload digest. A resource's
// payload is its block, so its block digest is its payload's too.
func (im *warcImport) original(rec *warc.Record, vid int64) {
	im.bodies[rec.ID()] = vid
	var digests []string
	if d := rec.Header.Get(warc.FieldPayloadDigest); d != "" {
		digests = append(digests, d)
	}
	switch {
	case importType(rec) == warc.TypeResource:
		if d := rec.Header.Get(warc.FieldBlockDigest); d != "" {
			digests = append(digests, d)
		}
		if len(digests) == 0 {
			digests = append(digests, warc.Digest(rec.Block))
		}
	case len(digests) == 0:
		if _, _, payload, err := warc.ParseHTTPResponse(rec.Block); err == nil {
			digests = append(digests, warc.Digest(payload))
		}
	}
	for _, d := range digests {
		im.byDigest[strings.ToUpper(strings.TrimSpace(d))] = vid
	}
}

// revisited returns the version holding the body of revisit rec: the
// response its WARC-Refers-To names, else one with its payload digest,
// else the version the store has of its WARC-Refers-To-Target-URI at its
// WARC-Refers-To-Date (WARC 1.1 makes WARC-Refers-To optional; a
// deduplicating crawler leaves it out).
func (im *warcImport) revisited(ctx context.Context, rec *warc.Record) (int64, error) {
	refersTo := rec.Header.Get(warc.FieldRefersTo)
	if vid, ok := im.bodies[warc.StripID(refersTo)]; ok && refersTo != "" {
		return vid, nil
	}
	digest := rec.Header.Get(warc.FieldPayloadDigest)
	if vid, ok := im.byDigest[strings.ToUpper(strings.TrimSpace(digest))]; ok && digest != "" {
		return vid, nil
	}
	uri, date := rec.Header.Get(warc.FieldRefersToURI), rec.Header.Get(warc.FieldRefersToDate)
	var target string
	if uri != "" {
		// Read even without a date, so that the message below never
		// quotes a URI whose credentials NormalizeURL would hide.
		var err error
		if target, err = spec.NormalizeURL(strings.Trim(uri, "<>")); err != nil {
			return 0, &badRecord{badOriginal, fmt.Errorf("%s: %w", warc.FieldRefersToURI, err)}
		}
	}
	if uri != "" && date != "" {
		at, err := warc.ParseDate(date)
		if err != nil {
			return 0, &badRecord{badOriginal, err}
		}
		canonical, err := vigil.CanonicalURL(target)
		if err != nil {
			return 0, &badRecord{badOriginal, err}
		}
		page, err := im.page(ctx, canonical)
		if err != nil {
			return 0, err
		}
		if v, err := page.fetchedAt(ctx, im.wh.Store(), at); err != nil || v != nil {
			if err != nil {
				return 0, err
			}
			return v.ID, nil
		}
	}
	where := "the file"
	if len(im.files) > 1 {
		where = "the files imported"
	}
	return 0, bad(badOriginal, "revisit whose original (WARC-Refers-To %q, WARC-Payload-Digest %q, WARC-Refers-To-Target-URI %q at %q) is neither in %s (dated no later than the revisit) nor in the store",
		refersTo, digest, uri, date, where)
}

// page returns what the store holds of the history of the page at
// canonical, read once a page.
func (im *warcImport) page(ctx context.Context, canonical string) (*pageHistory, error) {
	if page := im.pages[canonical]; page != nil {
		return page, nil
	}
	page, err := readPageHistory(ctx, im.wh.Store(), canonical)
	if err != nil {
		return nil, err
	}
	im.pages[canonical] = page
	return page, nil
}

// pageHistory is what importWARC knows of a page's history in the store:
// its resource (0 if none), when its newest version was fetched, and
// whether this import appended to it yet (after which the history is
// read again, record).
type pageHistory struct {
	resource int64
	newest   time.Time
	appended bool
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
