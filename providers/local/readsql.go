package local

import (
	"cmp"
	"context"
	"database/sql"
	"slices"
	"strconv"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/internal/shown"
)

// A read is one statement: the artifact's row with its lists and its
// conversation aggregated into JSON columns by correlated subqueries, so it
// costs one round trip on PostgreSQL (it was six: BEGIN, the item, labels,
// assignees, comments, COMMIT) and one statement on SQLite. A single
// statement reads one snapshot on both (PostgreSQL gives each statement its
// own; SQLite holds one read transaction per statement), which is the
// consistency the repeatable-read transaction gave the several statements.
//
// The two dialects spell JSON aggregation differently; jsonDialect holds
// the spellings and everything else is shared SQL.
type jsonDialect struct {
	// object is the function that builds a JSON object from key, value
	// pairs; array aggregates its argument (with an ORDER BY inside the
	// call) into a JSON array, "[]" when there are no rows.
	object     string
	arrayOpen  string
	arrayClose string
}

var jsonDialects = map[string]jsonDialect{
	// json (not jsonb) keeps the keys as given and costs no conversion.
	DialectPostgres: {object: "json_build_object", arrayOpen: "COALESCE(json_agg(", arrayClose: "), '[]')::text"},
	// json_group_array takes an ORDER BY since SQLite 3.44.
	DialectSQLite: {object: "json_object", arrayOpen: "json_group_array(", arrayClose: ")"},
}

// obj is a JSON object of the pairs (key, SQL expression, ...).
func (d jsonDialect) obj(pairs ...string) string {
	var b strings.Builder
	b.WriteString(d.object + "(")
	for i, p := range pairs {
		if i > 0 {
			b.WriteString(", ")
		}
		if i%2 == 0 {
			b.WriteString("'" + p + "'")
		} else {
			b.WriteString(p)
		}
	}
	return b.String() + ")"
}

// agg is a scalar subquery: elem over the rows of from (a FROM clause with
// its WHERE), ordered by order, as a JSON array.
func (d jsonDialect) agg(elem, order, from string) string {
	return "(SELECT " + d.arrayOpen + elem + " ORDER BY " + order + d.arrayClose + " " + from + ")"
}

// keyed is agg without its ORDER BY: each element carries the key it is
// ordered by and the decoder sorts on it. SQLite sorts an ordered aggregate
// in a temporary B-tree even when the index already yields the rows in that
// order, three of them per issue read; a few elements sort in Go for less.
// Which rows are read (a LIMIT) is still decided by an ORDER BY in from.
func (d jsonDialect) keyed(elem, from string) string {
	return "(SELECT " + d.arrayOpen + elem + d.arrayClose + " " + from + ")"
}

// nested is agg as a value inside another JSON object: still JSON to
// the enclosing object (SQLite's subtype does not cross a subquery, so
// json() restores it; PostgreSQL's json must stay json, not text).
func (d jsonDialect) nested(elem, order, from string) string {
	if d.object == "json_object" {
		return "json(" + d.agg(elem, order, from) + ")"
	}
	return "(SELECT COALESCE(json_agg(" + elem + " ORDER BY " + order + "), '[]'::json) " + from + ")"
}

// listColumns are the label and assignee columns of an artifact i, as JSON
// arrays of names with their positions (listEntry), in no order.
//
// Every computed column is named: SQLite names one without an alias by
// its whole expression, which the driver copies out on every query.
func (d jsonDialect) listColumns() string {
	var cols []string
	for _, t := range listTables {
		cols = append(cols, d.keyed(d.obj("p", "l.position", "n", "l."+t.name),
			"FROM "+t.table+" l WHERE l.repo_id = i.repo_id AND l.number = i.number")+" AS "+t.table)
	}
	return strings.Join(cols, ", ")
}

// commentColumns are artifact i's first $limit conversation comments (as
// JSON objects in no order; the oldest are the ones read) and how many
// there are.
func (d jsonDialect) commentColumns(limit string) string {
	return d.keyed(d.obj("i", "c.id", "a", "c.author", "b", "c.body"),
		"FROM (SELECT id, author, body FROM local_comments WHERE repo_id = i.repo_id AND number = i.number ORDER BY id LIMIT "+limit+") c") +
		" AS comments, (SELECT COUNT(*) FROM local_comments WHERE repo_id = i.repo_id AND number = i.number) AS comments_total"
}

// reviewColumns are pull request i's first reviewLimit reviews (oldest
// first), each with its first commentLimit inline comments in the order
// they were submitted, and how many reviews there are.
func (d jsonDialect) reviewColumns(reviewLimit, commentLimit string) string {
	comments := d.nested(d.obj("i", "c.id", "p", "c.path", "l", "c.line", "s", "c.side", "b", "c.body"), "c.id",
		"FROM (SELECT id, path, line, side, body FROM local_review_comments WHERE review_id = v.id ORDER BY id LIMIT "+commentLimit+") c")
	return d.agg(d.obj("i", "v.id", "a", "v.author", "v", "v.verdict", "b", "v.body", "c", comments), "v.id",
		"FROM (SELECT id, author, verdict, body FROM local_reviews WHERE repo_id = i.repo_id AND number = i.number ORDER BY id LIMIT "+reviewLimit+") v") +
		" AS reviews, (SELECT COUNT(*) FROM local_reviews WHERE repo_id = i.repo_id AND number = i.number) AS reviews_total"
}

// readQueries are the read statements of one dialect.
type readQueries struct {
	// item reads the artifact numbered $2 in repository key $1 with its
	// lists and its first $3 comments: itemColumns, labels, assignees,
	// comments, comment count.
	item string
	// listed is the start of a listing's statement: itemColumns and the
	// lists, FROM local_items i JOIN local_repos r; the caller adds its
	// WHERE.
	listed string
	// pull reads pull request $2 of repository key $1 like item, with
	// its first $4 reviews (each with its first $5 inline comments, as
	// JSON objects), the review count and the checks roll-up after the
	// comment count.
	pull string
}

var reads = map[string]readQueries{}

func init() {
	for name, d := range jsonDialects {
		from := ` FROM local_items i JOIN local_repos r ON r.id = i.repo_id`
		reads[name] = readQueries{
			// The number is cast, as in findItem, for SQLite's plan cache.
			item: `SELECT ` + itemColumns + `, ` + d.listColumns() + `, ` + d.commentColumns("$3") + from +
				` WHERE r.name_key = $1 AND i.number = CAST($2 AS BIGINT)`,
			listed: `SELECT ` + itemColumns + `, ` + d.listColumns() + from,
			pull: `SELECT ` + itemColumns + `, ` + d.listColumns() + `, ` + d.commentColumns("$3") + `, ` + d.reviewColumns("$4", "$5") +
				`, i.checks_state` + from + ` WHERE r.name_key = $1 AND i.number = CAST($2 AS BIGINT)`,
		}
	}
}

// querier is what a read runs on: the database, a connection or a
// transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// readOne runs fn's single statement outside any transaction (one
// statement is one snapshot): on PostgreSQL on the pool, on SQLite on a
// connection with a busy timeout, as inTx would give it (the pool itself
// once the DSN is known to set one).
func (f *Forge) readOne(ctx context.Context, fn func(querier) error) error {
	if f.dialect != DialectSQLite || f.busyFromDSN.Load() {
		return runOn(f.db, fn)
	}
	conn, err := f.db.Conn(ctx)
	if err != nil {
		return internal(err)
	}
	defer conn.Close()
	if err := f.ensureBusyTimeout(ctx, conn); err != nil {
		return internal(err)
	}
	return runOn(conn, fn)
}

// runOn calls fn on q; like runIn, a failure that is not the forge's
// answer is internal.
func runOn(q querier, fn func(querier) error) error { return answer(fn(q)) }

// listed is an item with its lists as read by a reads statement.
type listed struct {
	item
	labels, assignees string // JSON arrays of names
}

func (l *listed) dest() []any { return append(l.item.dest(), &l.labels, &l.assignees) }

// listEntry is one name of a list as listColumns returns it.
type listEntry struct {
	Position int64  `json:"p"`
	Name     string `json:"n"`
}

// lists decodes the item's lists in their stored order; an empty list is
// nil, as listsOf left it.
func (l *listed) lists() (itemLists, error) {
	var out itemLists
	for _, c := range []struct {
		raw string
		to  *[]string
	}{{l.labels, &out.labels}, {l.assignees, &out.assignees}} {
		var entries []listEntry
		if err := decodeColumn(c.raw, &entries); err != nil {
			return itemLists{}, err
		}
		slices.SortFunc(entries, func(a, b listEntry) int { return cmp.Compare(a.Position, b.Position) })
		for _, e := range entries {
			*c.to = append(*c.to, e.Name)
		}
	}
	return out, nil
}

// decodeColumn decodes one of the JSON columns the read statements build.
// It is on every read's path, so it uses json v2's decoder (the runtime's
// own JSON library), which allocates less than encoding/json's (with the
// named columns, a read went from 127 to 108 allocations and about a
// tenth less CPU: BenchmarkLocalRead). AllowInvalidUTF8 keeps
// encoding/json's answer for text the store might hold: U+FFFD, not an
// error. v2 matches keys exactly and refuses duplicates; the statements
// write each key once, in the struct tags' spelling.
func decodeColumn(raw string, v any) error {
	return jsonv2.Unmarshal([]byte(raw), v, jsontext.AllowInvalidUTF8(true))
}

// storedComment is a conversation comment as the item statement returns it.
type storedComment struct {
	ID     int64  `json:"i"`
	Author string `json:"a"`
	Body   string `json:"b"`
}

// scanListed runs a listing statement and reads its rows.
func scanListed(ctx context.Context, q querier, query string, args ...any) ([]*listed, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*listed
	for rows.Next() {
		l := &listed{}
		if err := rows.Scan(l.dest()...); err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// decodeComments turns the item statement's comment columns into the
// conversation as comments returned it: the comments read and the total
// the renderer shows beside them.
func (f *Forge) decodeComments(it *item, raw string, total int) ([]*forgev1.Comment, uint32, error) {
	var stored []storedComment
	if err := decodeColumn(raw, &stored); err != nil {
		return nil, 0, err
	}
	slices.SortFunc(stored, func(a, b storedComment) int { return cmp.Compare(a.ID, b.ID) }) // oldest first
	var out []*forgev1.Comment
	for _, c := range stored {
		out = append(out, &forgev1.Comment{Author: c.Author, Body: c.Body,
			Url: f.commentURL(it.kind, it.repo, it.number, strconv.FormatInt(c.ID, 10))})
	}
	return out, shown.Total(len(out), total), nil
}

// storedReview is a review as the pull statement returns it.
type storedReview struct {
	ID       int64  `json:"i"`
	Author   string `json:"a"`
	Verdict  string `json:"v"`
	Body     string `json:"b"`
	Comments []struct {
		ID   int64  `json:"i"` // the thread the comment opened
		Path string `json:"p"`
		Line int64  `json:"l"`
		Side string `json:"s"`
		Body string `json:"b"`
	} `json:"c"`
}

// decodeReviews turns the pull statement's review columns into the
// reviews as reviews returned them.
func (f *Forge) decodeReviews(it *item, raw string, total int) ([]*forgev1.Review, uint32, error) {
	var stored []storedReview
	if err := decodeColumn(raw, &stored); err != nil {
		return nil, 0, err
	}
	var out []*forgev1.Review
	for _, s := range stored {
		r := &forgev1.Review{Author: s.Author, Verdict: s.Verdict, Body: s.Body,
			Url: f.reviewURL(it.repo, it.number, strconv.FormatInt(s.ID, 10))}
		for _, c := range s.Comments {
			r.Comments = append(r.Comments, &forgev1.ReviewComment{Path: c.Path, Line: uint64(c.Line), Side: c.Side, Body: c.Body, Author: s.Author,
				ThreadId: strconv.FormatInt(c.ID, 10)})
		}
		out = append(out, r)
	}
	return out, shown.Total(len(out), total), nil
}
