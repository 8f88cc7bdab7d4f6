package forgefake

// Page renders one page of items: page counts from 1 (anything lower is
// 1), per items to a page. out is never nil (an empty page is []), and
// more says items remain after it. Each forge sends its own paging
// headers around it.
func Page[T any](items []T, page, per int, render func(T) any) (out []any, more bool) {
	page = max(page, 1)
	lo, hi := min((page-1)*per, len(items)), min(page*per, len(items))
	out = []any{}
	for _, it := range items[lo:hi] {
		out = append(out, render(it))
	}
	return out, hi < len(items)
}
