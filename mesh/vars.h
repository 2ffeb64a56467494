/* Variable registry: named double fields on cells or nodes; sync, migration and dumps iterate it. */
#ifndef HYDRO_VARS_H
#define HYDRO_VARS_H

#include <stdint.h>

#include "matstore.h"

enum var_center { VAR_CELL, VAR_NODE };
/* The flags decide what every module does with a variable; none looks a variable up by name. */
enum var_flags {
    VAR_SYNC = 1u << 0,       /* may be synchronised: ghosts receive the owner's value (sync.c refuses others) */
    VAR_CHECKPOINT = 1u << 1, /* written to dumps, read on restart */
    VAR_MIGRATE = 1u << 2,    /* travels with its items when cells migrate, synchronised whole around it
                               * (registry-owned storage and VAR_SYNC required); a registry-owned
                               * variable without it is resized for the new mesh, zero-filled */
    VAR_SHOCK = 1u << 3,      /* the cell variable that loadbalance.cost = shock reads: cells where it is
                               * positive cost more (at most one) */
    VAR_MATERIAL = 1u << 4,   /* a material variable (registry_add_material): one quantity of the
                               * registry's matstore, read and written as rows of one value per material
                               * (0 where absent); synchronised with messages sized by the composition */
    VAR_FRACTION = 1u << 5    /* the material variable of the volume fractions: setting its row sets the
                               * cell's composition (its positive entries) */
};

struct var {
    char name[64];
    enum var_center center;
    int ncomp; /* doubles per item, stored item-major: data[item * ncomp + k] */
    unsigned flags;
    char unit[32];
    double *data; /* [items][ncomp], owned items then ghosts as in the mesh numbering */
    int stride;   /* doubles from one item to the next: ncomp, more for a view (registry_set_view) */
    int external; /* data not owned by the registry */
    int mq;       /* material variables: the matstore quantity, and the cell variable holding a */
    int pure;     /* pure cell's value (-1: the fraction, 1) */
};

struct registry {
    int n, cap;
    struct var *v;
    int32_t ncells, nnodes; /* local items, owned + ghosts */
    struct matstore *mats;  /* the materials' storage, NULL without material variables */
};

void registry_init(struct registry *r, int32_t ncells, int32_t nnodes);
void registry_free(struct registry *r);
/* Adds a zero-filled variable and returns its id; aborts when the name is taken on the same
 * centering (a cell and a node variable may share a name: /cells/mass and /nodes/mass). */
int registry_add(struct registry *r, const char *name, enum var_center center, int ncomp, unsigned flags,
                 const char *unit);
/* A variable whose storage belongs to someone else (mesh coordinates): synchronised like the
 * others, never freed by the registry, never migrated (VAR_MIGRATE is refused). */
int registry_add_external(struct registry *r, const char *name, enum var_center center, int ncomp, unsigned flags,
                          const char *unit, double *data);
void registry_set_external(struct registry *r, int id, double *data);
/* An external variable that sees ncomp columns of a wider array (item i at data + i * stride),
 * so that it is synchronised in place. Only synchronisation honours the stride: a view has no
 * flag but VAR_SYNC (never dumped, never migrated). */
void registry_set_view(struct registry *r, int id, double *data, int stride);
/* The materials' storage for nmat materials over the registry's cells (before any material
 * variable); registry_free frees it. */
void registry_set_materials(struct registry *r, int nmat);
/* A material variable: quantity mq of the store, its pure cells' values in cell variable pure
 * (-1 for MQ_FRAC); flags must include VAR_MATERIAL. */
int registry_add_material(struct registry *r, const char *name, enum mat_quantity mq, int pure, unsigned flags,
                          const char *unit);
/* Material variable id of cell c as a row of nmat values (0 where absent). */
void registry_mat_row(const struct registry *r, int id, int32_t c, double *row);
/* Sets it: the fractions' row sets the composition (its positive entries) first; a pure cell's
 * value goes to its cell variable when to_cell (else the cell variable is set apart). */
void registry_mat_set_row(struct registry *r, int id, int32_t c, const double *row, int to_cell);
/* The variable carrying flag (the first one), -1 when none does. */
int registry_flagged(const struct registry *r, unsigned flag);
/* Whether a variable of the other centering has the same name (/cells/mass and /nodes/mass). */
int registry_name_shared(const struct registry *r, int id);
/* Items of a variable's centering. */
int32_t registry_items(const struct registry *r, int id);

#endif
