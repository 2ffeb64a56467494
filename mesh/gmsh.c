/* Gmsh MSH 4.1 ASCII reader (see gmsh.h). */
#include "gmsh.h"

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "gmsh_parse.h"
#include "idmap.h"

/* Nodes per element type, MSH 4.1 numbering; 0 = unknown to this reader. */
static int nodes_of_type(long t)
{
    static const int n[] = {0, 2, 3, 4, 4, 8, 6, 5, 3, 6, 9, 10, 27, 18, 14, 1, 8, 20, 15, 13, 9, 10, 12, 15, 15, 21,
                            4, 5, 6, 20, 35, 56};
    return t >= 0 && t < (long)(sizeof n / sizeof n[0]) ? n[t] : 0;
}

struct lexer {
    FILE *f;
    const char *path;
    char *line;
    size_t cap;
    char *p;
    long lineno;
    char *err;
    size_t errlen;
    jmp_buf fail;
};

static _Noreturn void lex_fail(struct lexer *lx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static _Noreturn void lex_fail(struct lexer *lx, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(lx->err, lx->errlen, "%s:%ld: %s", lx->path, lx->lineno, msg);
    longjmp(lx->fail, 1);
}

/* Next whitespace-separated token, or NULL at end of file. */
static char *next_token(struct lexer *lx)
{
    for (;;) {
        if (lx->p) {
            while (*lx->p == ' ' || *lx->p == '\t' || *lx->p == '\r' || *lx->p == '\n')
                lx->p++;
            if (*lx->p) {
                char *t = lx->p;
                while (*lx->p && *lx->p != ' ' && *lx->p != '\t' && *lx->p != '\r' && *lx->p != '\n')
                    lx->p++;
                if (*lx->p)
                    *lx->p++ = '\0';
                return t;
            }
        }
        if (getline(&lx->line, &lx->cap, lx->f) < 0)
            return NULL;
        lx->lineno++;
        lx->p = lx->line;
    }
}

static char *need_token(struct lexer *lx, const char *what)
{
    char *t = next_token(lx);
    if (!t)
        lex_fail(lx, "unexpected end of file, expected %s", what);
    return t;
}

static long need_long(struct lexer *lx, const char *what)
{
    char *t = need_token(lx, what), *end;
    errno = 0;
    long v = strtol(t, &end, 10);
    if (*end || errno)
        lex_fail(lx, "expected %s, found '%.40s'", what, t);
    return v;
}

static double need_double(struct lexer *lx, const char *what)
{
    char *t = need_token(lx, what), *end;
    double v = strtod(t, &end);
    if (*end)
        lex_fail(lx, "expected %s, found '%.40s'", what, t);
    return v;
}

static void need_word(struct lexer *lx, const char *word)
{
    char *t = need_token(lx, word);
    if (strcmp(t, word))
        lex_fail(lx, "expected %s, found '%.40s'", word, t);
}

static void skip_section(struct lexer *lx, const char *name)
{
    char end[256];
    snprintf(end, sizeof end, "$End%s", name + 1);
    for (;;) {
        char *t = need_token(lx, end);
        if (!strcmp(t, end))
            return;
    }
}

/* Rest of the current line is a quoted name: skip it. */
static void skip_line(struct lexer *lx) { lx->p = NULL; }

struct entity {
    long tag;
    int phys; /* first physical tag, 0 if none */
};

struct reader {
    struct lexer lx;
    int dim;
    struct gmsh_keep keep;
    struct entity *ent[4];
    long nent[4];
    int have_nodes, have_elements, have_format;
    struct gmsh_items it; /* what this pass keeps */
    long cap_nodes, cap_cells, cap_bnd, bnd_seen;
    unsigned char *kept; /* bit i: node i of the current node block is kept */
    size_t kept_cap;
    /* temporaries of assemble(), here so that an error exit frees them */
    struct idmap tag2pos, tag2gid;
    char *used;
    struct key_idx *nt, *ct;
    struct face_rec *fr;
};

static int in_range(long t, long lo, long hi, int to_end) { return t >= lo && (to_end || t < hi); }

/* Room for one more kept node, cell or boundary element (grown: announced counts are not trusted). */
static void grow_nodes(struct reader *r)
{
    struct gmsh_items *it = &r->it;
    if (it->nnodes < r->cap_nodes)
        return;
    r->cap_nodes = r->cap_nodes ? 2 * r->cap_nodes : 1024;
    it->node_tag = xrealloc(it->node_tag, (size_t)r->cap_nodes * sizeof *it->node_tag);
    it->node_line = xrealloc(it->node_line, (size_t)r->cap_nodes * sizeof *it->node_line);
    it->node_xyz = xrealloc(it->node_xyz, (size_t)r->cap_nodes * 3 * sizeof *it->node_xyz);
}

static void grow_cells(struct reader *r, int nvc)
{
    struct gmsh_items *it = &r->it;
    if (it->ncells < r->cap_cells)
        return;
    r->cap_cells = r->cap_cells ? 2 * r->cap_cells : 1024;
    it->cell_tag = xrealloc(it->cell_tag, (size_t)r->cap_cells * sizeof *it->cell_tag);
    it->cell_line = xrealloc(it->cell_line, (size_t)r->cap_cells * sizeof *it->cell_line);
    it->cell_nodes = xrealloc(it->cell_nodes, (size_t)r->cap_cells * nvc * sizeof *it->cell_nodes);
}

static void grow_bnd(struct reader *r, int nvb)
{
    struct gmsh_items *it = &r->it;
    if (it->nbnd < r->cap_bnd)
        return;
    r->cap_bnd = r->cap_bnd ? 2 * r->cap_bnd : 1024;
    it->bnd_tag = xrealloc(it->bnd_tag, (size_t)r->cap_bnd * sizeof *it->bnd_tag);
    it->bnd_line = xrealloc(it->bnd_line, (size_t)r->cap_bnd * sizeof *it->bnd_line);
    it->bnd_ord = xrealloc(it->bnd_ord, (size_t)r->cap_bnd * sizeof *it->bnd_ord);
    it->bnd_phys = xrealloc(it->bnd_phys, (size_t)r->cap_bnd * sizeof *it->bnd_phys);
    it->bnd_nodes = xrealloc(it->bnd_nodes, (size_t)r->cap_bnd * nvb * sizeof *it->bnd_nodes);
}

static void read_entities(struct reader *r)
{
    struct lexer *lx = &r->lx;
    long n[4];
    for (int d = 0; d < 4; d++) {
        n[d] = need_long(lx, "number of entities");
        if (n[d] < 0)
            lex_fail(lx, "negative number of entities");
    }
    for (int d = 0; d < 4; d++) {
        /* grown as entities arrive: the announced count is not trusted (nor allocated) */
        long cap = 16;
        r->ent[d] = xcalloc((size_t)cap, sizeof **r->ent);
        for (long i = 0; i < n[d]; i++) {
            if (i == cap) {
                cap *= 2;
                r->ent[d] = xrealloc(r->ent[d], (size_t)cap * sizeof **r->ent);
            }
            r->nent[d] = i + 1;
            r->ent[d][i].phys = 0;
            r->ent[d][i].tag = need_long(lx, "entity tag");
            for (int k = 0; k < (d == 0 ? 3 : 6); k++)
                need_double(lx, "entity bounding box");
            long np = need_long(lx, "number of physical tags");
            if (np < 0)
                lex_fail(lx, "negative number of physical tags");
            for (long k = 0; k < np; k++) {
                long ph = need_long(lx, "physical tag");
                if (ph < -INT32_MAX || ph > INT32_MAX)
                    lex_fail(lx, "physical tag %ld out of range", ph);
                if (k == 0)
                    r->ent[d][i].phys = (int)(ph < 0 ? -ph : ph);
            }
            if (d > 0) {
                long nb = need_long(lx, "number of bounding entities");
                if (nb < 0)
                    lex_fail(lx, "negative number of bounding entities");
                for (long k = 0; k < nb; k++)
                    need_long(lx, "bounding entity tag");
            }
        }
    }
    need_word(lx, "$EndEntities");
}

static int entity_phys(const struct reader *r, int d, long tag)
{
    for (long i = 0; i < r->nent[d]; i++)
        if (r->ent[d][i].tag == tag)
            return r->ent[d][i].phys;
    return 0;
}

static void read_node_block(struct reader *r, long n, long edim, long param)
{
    struct lexer *lx = &r->lx;
    const struct gmsh_keep *kp = &r->keep;
    struct gmsh_items *it = &r->it;
    long first = it->nnodes;
    for (long i = 0; i < n; i++) {
        if ((size_t)i / 8 >= r->kept_cap) {
            r->kept_cap = r->kept_cap ? 2 * r->kept_cap : 1024;
            r->kept = xrealloc(r->kept, r->kept_cap);
        }
        if (i % 8 == 0)
            r->kept[i / 8] = 0;
        long tag = need_long(lx, "node tag");
        if (tag <= 0)
            lex_fail(lx, "node tag %ld is not positive", tag);
        if (kp->node_seen)
            kp->node_seen(kp->ctx, tag);
        if (in_range(tag, kp->node_lo, kp->node_hi, kp->node_to_end)) {
            grow_nodes(r);
            it->node_tag[it->nnodes] = tag;
            it->node_line[it->nnodes++] = lx->lineno;
            r->kept[i / 8] |= (unsigned char)(1u << (i % 8));
        }
    }
    for (long i = 0, k = first; i < n; i++) {
        int keep = r->kept[i / 8] >> (i % 8) & 1;
        for (int d = 0; d < 3; d++) {
            if (keep && kp->coords)
                it->node_xyz[3 * k + d] = need_double(lx, "node coordinate");
            else
                need_token(lx, "node coordinate");
        }
        k += keep;
        for (long d = 0; param && d < edim; d++)
            need_double(lx, "parametric coordinate");
    }
}

static void read_nodes(struct reader *r)
{
    struct lexer *lx = &r->lx;
    long nblocks = need_long(lx, "number of node blocks");
    long total = need_long(lx, "number of nodes");
    need_long(lx, "minimum node tag");
    need_long(lx, "maximum node tag");
    if (nblocks < 0 || total < 0)
        lex_fail(lx, "negative node count");
    long k = 0;
    for (long b = 0; b < nblocks; b++) {
        long edim = need_long(lx, "entity dimension");
        need_long(lx, "entity tag");
        long param = need_long(lx, "parametric flag");
        long n = need_long(lx, "nodes in block");
        if (edim < 0 || edim > 3 || n < 0 || (param != 0 && param != 1))
            lex_fail(lx, "bad node block header");
        if (n > total - k)
            lex_fail(lx, "more nodes than the %ld announced", total);
        read_node_block(r, n, edim, param);
        k += n;
    }
    if (k != total)
        lex_fail(lx, "%ld nodes announced, %ld found", total, k);
    need_word(lx, "$EndNodes");
}

/* One element of a block: a cell or boundary element is kept when the pass asks for it. */
static void read_element(struct reader *r, int nv, int is_cell, int is_bnd, int phys)
{
    struct lexer *lx = &r->lx;
    const struct gmsh_keep *kp = &r->keep;
    struct gmsh_items *it = &r->it;
    const int nvc = r->dim == 2 ? 4 : 8, nvb = r->dim == 2 ? 2 : 4;
    long tag = need_long(lx, "element tag");
    long line = lx->lineno;
    long nodes[64];
    for (int k = 0; k < nv; k++)
        nodes[k] = need_long(lx, "element node tag");
    if (is_cell) {
        if (kp->cell_seen)
            kp->cell_seen(kp->ctx, tag);
        if (!in_range(tag, kp->cell_lo, kp->cell_hi, kp->cell_to_end))
            return;
        grow_cells(r, nvc);
        it->cell_tag[it->ncells] = tag;
        it->cell_line[it->ncells] = line;
        memcpy(it->cell_nodes + it->ncells * nvc, nodes, (size_t)nvc * sizeof *nodes);
        it->ncells++;
    } else if (is_bnd) {
        long ord = r->bnd_seen++;
        if (!kp->bnd_stride || ord % kp->bnd_stride != kp->bnd_phase)
            return;
        grow_bnd(r, nvb);
        it->bnd_tag[it->nbnd] = tag;
        it->bnd_line[it->nbnd] = line;
        it->bnd_ord[it->nbnd] = ord;
        it->bnd_phys[it->nbnd] = phys;
        memcpy(it->bnd_nodes + it->nbnd * nvb, nodes, (size_t)nvb * sizeof *nodes);
        it->nbnd++;
    }
}

static void read_elements(struct reader *r)
{
    struct lexer *lx = &r->lx;
    int cell_type = r->dim == 2 ? 3 : 5, bnd_type = r->dim == 2 ? 1 : 3;
    long nblocks = need_long(lx, "number of element blocks");
    need_long(lx, "number of elements");
    need_long(lx, "minimum element tag");
    need_long(lx, "maximum element tag");
    if (nblocks < 0)
        lex_fail(lx, "negative number of element blocks");
    for (long b = 0; b < nblocks; b++) {
        long edim = need_long(lx, "entity dimension");
        long etag = need_long(lx, "entity tag");
        long type = need_long(lx, "element type");
        long n = need_long(lx, "elements in block");
        int nv = nodes_of_type(type);
        if (edim < 0 || edim > 3 || n < 0)
            lex_fail(lx, "bad element block header");
        if (!nv)
            lex_fail(lx, "unknown element type %ld", type);
        if (edim > r->dim)
            lex_fail(lx, "the file has %ldD elements but mesh.dim = %d", edim, r->dim);
        int is_cell = edim == r->dim, is_bnd = edim == r->dim - 1 && type == bnd_type;
        if (is_cell && type != cell_type)
            lex_fail(lx, "unsupported %ldD element type %ld: only %s are supported (recombine the mesh)", edim,
                     type, r->dim == 2 ? "4-node quadrangles (type 3)" : "8-node hexahedra (type 5)");
        int phys = is_bnd ? entity_phys(r, (int)edim, etag) : 0;
        for (long i = 0; i < n; i++)
            read_element(r, nv, is_cell, is_bnd, phys);
    }
    need_word(lx, "$EndElements");
}

/* The used nodes, renumbered by tag, into out; errors name the element's line. */
static void assemble_nodes(struct reader *r, struct cellset *out)
{
    struct lexer *lx = &r->lx;
    const int nvc = out->el->nnodes;
    /* node tag -> position in the file, then keep only used nodes, renumbered by tag */
    idmap_init(&r->tag2pos, (size_t)r->it.nnodes);
    for (long i = 0; i < r->it.nnodes; i++)
        if (!idmap_put(&r->tag2pos, r->it.node_tag[i], i)) {
            lx->lineno = r->it.node_line[i];
            lex_fail(lx, "node tag %ld is defined twice", r->it.node_tag[i]);
        }
    char *used = r->used = xcalloc((size_t)(r->it.nnodes ? r->it.nnodes : 1), 1);
    for (long c = 0; c < r->it.ncells; c++)
        for (int k = 0; k < nvc; k++) {
            int64_t p = idmap_get(&r->tag2pos, r->it.cell_nodes[c * nvc + k]);
            if (p < 0) {
                lx->lineno = r->it.cell_line[c];
                lex_fail(lx, "element %ld uses undefined node %ld", r->it.cell_tag[c], r->it.cell_nodes[c * nvc + k]);
            }
            used[p] = 1;
        }
    struct key_idx *nt = r->nt = xmalloc((size_t)(r->it.nnodes ? r->it.nnodes : 1) * sizeof *nt);
    long nused = 0;
    for (long i = 0; i < r->it.nnodes; i++)
        if (used[i])
            nt[nused++] = (struct key_idx){r->it.node_tag[i], i};
    qsort(nt, (size_t)nused, sizeof *nt, key_idx_cmp);
    idmap_init(&r->tag2gid, (size_t)nused);
    for (long g = 0; g < nused; g++) {
        idmap_put(&r->tag2gid, nt[g].key, g);
        cellset_add_node(out, g, r->it.node_xyz + 3 * nt[g].idx);
    }
    if (r->dim == 2) /* quads live in the xy plane */
        for (int64_t i = 0; i < out->nnodes; i++)
            out->xyz[3 * i + 2] = 0.0;
}

int gmsh_orient(const struct element *el, int64_t *nodes, double (*x)[3])
{
    const int nvc = el->nnodes;
    if (element_corner_quality(el, (const double(*)[3])x) > 0)
        return 0;
    /* try the mirrored order: clockwise quad, left-handed hex */
    static const int mirror[8] = {0, 3, 2, 1, 4, 7, 6, 5};
    int64_t m[MAX_CELL_NODES];
    double y[MAX_CELL_NODES][3];
    for (int k = 0; k < nvc; k++) {
        m[k] = nodes[mirror[k]];
        for (int d = 0; d < 3; d++)
            y[k][d] = x[mirror[k]][d];
    }
    if (element_corner_quality(el, (const double(*)[3])y) <= 0)
        return -1;
    memcpy(nodes, m, (size_t)nvc * sizeof *m);
    memcpy(x, y, (size_t)nvc * sizeof *y);
    return 0;
}

/* The cells in ascending element tag, each oriented so that its corners are valid. */
static void assemble_cells(struct reader *r, struct cellset *out)
{
    struct lexer *lx = &r->lx;
    const struct element *el = out->el;
    const int nvc = el->nnodes;
    struct key_idx *ct = r->ct = xmalloc((size_t)(r->it.ncells ? r->it.ncells : 1) * sizeof *ct);
    for (long c = 0; c < r->it.ncells; c++)
        ct[c] = (struct key_idx){r->it.cell_tag[c], c};
    qsort(ct, (size_t)r->it.ncells, sizeof *ct, key_idx_cmp);
    for (long g = 0; g < r->it.ncells; g++) {
        long c = ct[g].idx;
        if (g > 0 && ct[g - 1].key == ct[g].key) {
            lx->lineno = r->it.cell_line[c];
            lex_fail(lx, "element tag %ld is defined twice", ct[g].key);
        }
        int64_t nodes[MAX_CELL_NODES];
        double x[MAX_CELL_NODES][3];
        for (int k = 0; k < nvc; k++) {
            nodes[k] = idmap_get(&r->tag2gid, r->it.cell_nodes[c * nvc + k]);
            const double *p = cellset_node_xyz(out, nodes[k]);
            for (int d = 0; d < 3; d++)
                x[k][d] = p[d];
        }
        if (gmsh_orient(el, nodes, x)) {
            lx->lineno = r->it.cell_line[c];
            lex_fail(lx, "element %ld is degenerate or twisted (a corner Jacobian is not positive)",
                     r->it.cell_tag[c]);
        }
        cellset_add_cell(out, g, nodes, NULL);
    }
}

/* The face key of boundary element b: its nodes as gids, sorted as element_face_key sorts them. */
static void boundary_key(struct reader *r, long b, int nvb, int64_t key[4])
{
    struct lexer *lx = &r->lx;
    for (int i = 0; i < 4; i++)
        key[i] = -1;
    for (int i = 0; i < nvb; i++) {
        key[i] = idmap_get(&r->tag2gid, r->it.bnd_nodes[b * nvb + i]);
        if (key[i] < 0) {
            lx->lineno = r->it.bnd_line[b];
            lex_fail(lx, "boundary element %ld uses node %ld, which belongs to no cell", r->it.bnd_tag[b],
                     r->it.bnd_nodes[b * nvb + i]);
        }
    }
    for (int i = 1; i < nvb; i++)
        for (int j = i; j > 0 && key[j - 1] > key[j]; j--) {
            int64_t t = key[j];
            key[j] = key[j - 1];
            key[j - 1] = t;
        }
}

/* Match faces: cell faces pair up; boundary elements tag unpaired faces. */
static void tag_boundary(struct reader *r, struct cellset *out)
{
    struct lexer *lx = &r->lx;
    const struct element *el = out->el;
    const int nvc = el->nnodes, nf = el->nfaces, nvb = el->nface_nodes;
    const struct key_idx *ct = r->ct;
    int64_t nrec = out->ncells * nf + r->it.nbnd;
    struct face_rec *fr = r->fr = xmalloc((size_t)(nrec ? nrec : 1) * sizeof *fr);
    int64_t k = 0;
    for (int64_t c = 0; c < out->ncells; c++)
        for (int f = 0; f < nf; f++) {
            element_face_key(el, out->nodes + c * nvc, f, fr[k].key);
            fr[k].cell = c;
            fr[k++].side = f;
        }
    for (long b = 0; b < r->it.nbnd; b++) {
        int64_t key[4];
        boundary_key(r, b, nvb, key);
        memcpy(fr[k].key, key, sizeof key);
        fr[k].cell = -1 - b;
        fr[k++].side = -1;
    }
    qsort(fr, (size_t)nrec, sizeof *fr, face_rec_cmp);
    for (int64_t i = 0; i < nrec;) {
        int64_t j = i;
        int ncell = 0, nbnd = 0;
        while (j < nrec && !memcmp(fr[j].key, fr[i].key, sizeof fr[i].key)) {
            if (fr[j].cell >= 0)
                ncell++;
            else
                nbnd++;
            j++;
        }
        /* sorted: boundary elements (negative) first, then cells */
        if (ncell > 2) {
            int64_t c = fr[j - 1].cell;
            lx->lineno = r->it.cell_line[ct[c].idx];
            lex_fail(lx, "element %ld shares a face with %d other elements (non-conforming mesh)", ct[c].key,
                     ncell - 1);
        }
        if (nbnd > 0 && ncell == 0) {
            long b = -1 - fr[i].cell;
            lx->lineno = r->it.bnd_line[b];
            lex_fail(lx, "boundary element %ld is not a face of any cell", r->it.bnd_tag[b]);
        }
        if (nbnd > 0 && ncell == 1) {
            long b = -1 - fr[i].cell;
            int64_t c = fr[j - 1].cell;
            out->face_tag[c * nf + fr[j - 1].side] = r->it.bnd_phys[b];
        }
        i = j;
    }
}

/* Build the cellset from what was read; errors name the element's line. */
static void assemble(struct reader *r, struct cellset *out)
{
    assemble_nodes(r, out);
    assemble_cells(r, out);
    tag_boundary(r, out);
}

void gmsh_items_free(struct gmsh_items *it)
{
    free(it->node_tag);
    free(it->node_line);
    free(it->node_xyz);
    free(it->cell_tag);
    free(it->cell_line);
    free(it->cell_nodes);
    free(it->bnd_tag);
    free(it->bnd_line);
    free(it->bnd_ord);
    free(it->bnd_nodes);
    free(it->bnd_phys);
    memset(it, 0, sizeof *it);
}

static void reader_free(struct reader *r)
{
    for (int d = 0; d < 4; d++)
        free(r->ent[d]);
    gmsh_items_free(&r->it);
    free(r->kept);
    free(r->lx.line);
    free(r->used);
    free(r->nt);
    free(r->ct);
    free(r->fr);
    if (r->tag2pos.cap)
        idmap_free(&r->tag2pos);
    if (r->tag2gid.cap)
        idmap_free(&r->tag2gid);
    if (r->lx.f)
        fclose(r->lx.f);
    free(r);
}

/* A reader of path, its file open, or NULL with the reason in err. */
static struct reader *reader_open(const char *path, int dim, const struct gmsh_keep *keep, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open mesh: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: not a regular file", path);
        fclose(f);
        return NULL;
    }
    struct reader *r = xcalloc(1, sizeof *r);
    r->dim = dim;
    r->keep = *keep;
    r->lx.f = f;
    r->lx.path = path;
    r->lx.err = err;
    r->lx.errlen = errlen;
    return r;
}

static void read_format(struct reader *r)
{
    struct lexer *lx = &r->lx;
    char *v = need_token(lx, "version");
    if (strcmp(v, "4.1"))
        lex_fail(lx, "MSH version %.20s is not supported: save as MSH 4.1 (gmsh -format msh41)", v);
    long ft = need_long(lx, "file type");
    if (ft != 0)
        lex_fail(lx, "binary MSH is not supported: save as ASCII (Mesh.Binary = 0)");
    need_long(lx, "data size");
    need_word(lx, "$EndMeshFormat");
    r->have_format = 1;
}

/* The whole file, section by section; what is kept goes into r->it. */
static void read_sections(struct reader *r)
{
    struct lexer *lx = &r->lx;
    char *t;
    while ((t = next_token(lx))) {
        if (!strcmp(t, "$MeshFormat")) {
            read_format(r);
        } else if (!r->have_format) {
            lex_fail(lx, "not a Gmsh mesh: expected $MeshFormat, found '%.40s'", t);
        } else if (!strcmp(t, "$Entities")) {
            if (r->ent[0])
                lex_fail(lx, "second $Entities section");
            read_entities(r);
        } else if (!strcmp(t, "$Nodes")) {
            if (r->have_nodes)
                lex_fail(lx, "second $Nodes section");
            read_nodes(r);
            r->have_nodes = 1;
        } else if (!strcmp(t, "$Elements")) {
            if (r->have_elements)
                lex_fail(lx, "second $Elements section");
            read_elements(r);
            r->have_elements = 1;
        } else if (!strcmp(t, "$PartitionedEntities")) {
            lex_fail(lx, "partitioned MSH files are not supported: save the whole mesh");
        } else if (!strcmp(t, "$PhysicalNames")) {
            long n = need_long(lx, "number of physical names");
            for (long i = 0; i < n; i++) {
                need_long(lx, "physical dimension");
                need_long(lx, "physical tag");
                skip_line(lx);
            }
            need_word(lx, "$EndPhysicalNames");
        } else if (t[0] == '$') {
            skip_section(lx, t);
        } else {
            lex_fail(lx, "expected a $Section, found '%.40s'", t);
        }
    }
    if (!r->have_format)
        lex_fail(lx, "not a Gmsh mesh: empty file");
    if (!r->have_nodes || !r->have_elements)
        lex_fail(lx, "missing $%s section", r->have_nodes ? "Elements" : "Nodes");
    r->it.last_line = lx->lineno;
}

void gmsh_keep_all(struct gmsh_keep *k)
{
    memset(k, 0, sizeof *k);
    k->cell_lo = k->node_lo = LONG_MIN;
    k->cell_to_end = k->node_to_end = 1;
    k->bnd_stride = 1;
    k->coords = 1;
}

int gmsh_parse(const char *path, int dim, const struct gmsh_keep *keep, struct gmsh_items *it, char *err,
               size_t errlen)
{
    memset(it, 0, sizeof *it);
    /* volatile: modified between setjmp and a possible longjmp */
    struct reader *volatile r = reader_open(path, dim, keep, err, errlen);
    if (!r)
        return -1;
    int rc = 0;
    if (setjmp(r->lx.fail))
        rc = -1;
    else
        read_sections(r);
    *it = r->it; /* handed over, freed by the caller in both cases */
    memset(&r->it, 0, sizeof r->it);
    reader_free(r);
    return rc;
}

int gmsh_read(const char *path, int dim, struct cellset *out, char *err, size_t errlen)
{
    struct gmsh_keep all;
    gmsh_keep_all(&all);
    struct reader *volatile r = reader_open(path, dim, &all, err, errlen);
    if (!r)
        return -1;
    int rc = 0;
    if (setjmp(r->lx.fail)) {
        rc = -1;
    } else {
        read_sections(r);
        if (r->it.ncells == 0)
            lex_fail(&r->lx, "no %s in the file", dim == 2 ? "quadrangles" : "hexahedra");
        assemble(r, out);
    }
    reader_free(r);
    return rc;
}

/* The element blocks of $Elements: per dimension 2 and 3, the elements (the lines skipped). */
static int scan_elements(FILE *f, char **line, size_t *cap, int64_t count[4])
{
    long nblocks, nelem, lo, hi;
    if (getline(line, cap, f) < 0 || sscanf(*line, "%ld %ld %ld %ld", &nblocks, &nelem, &lo, &hi) != 4 || nblocks < 0)
        return -1;
    for (long b = 0; b < nblocks; b++) {
        long edim, etag, type, n;
        if (getline(line, cap, f) < 0 || sscanf(*line, "%ld %ld %ld %ld", &edim, &etag, &type, &n) != 4 ||
            edim < 0 || edim > 3 || n < 0)
            return -1;
        count[edim] += n;
        for (long i = 0; i < n; i++)
            if (getline(line, cap, f) < 0)
                return -1;
    }
    return 0;
}

int gmsh_scan(const char *path, int *dim, int64_t *ncells, int64_t *nnodes)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char *line = NULL;
    size_t cap = 0;
    int64_t count[4] = {0, 0, 0, 0};
    int rc = -1, have_nodes = 0;
    long nb, nn;
    while (getline(&line, &cap, f) >= 0) {
        if (!strncmp(line, "$Nodes", 6) && getline(&line, &cap, f) >= 0 && sscanf(line, "%ld %ld", &nb, &nn) == 2) {
            *nnodes = nn;
            have_nodes = 1;
        } else if (!strncmp(line, "$Elements", 9)) {
            rc = scan_elements(f, &line, &cap, count);
            break;
        }
    }
    free(line);
    fclose(f);
    if (rc || !have_nodes || (count[2] == 0 && count[3] == 0))
        return -1;
    *dim = count[3] > 0 ? 3 : 2;
    *ncells = count[*dim];
    return 0;
}
