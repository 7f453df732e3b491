/**
 * The query's name where a message is given for it, as the API and the search page's URL call
 * it. A module of its own, so that the search field in the header of every page has the name
 * without loading the rules of search (search-query.rules.ts).
 */
export const SEARCH_FIELD = 'q'
