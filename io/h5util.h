/* HDF5 helpers: every call checked (path + HDF5 error stack summary), small attribute I/O. */
#ifndef HYDRO_H5UTIL_H
#define HYDRO_H5UTIL_H

#include <hdf5.h>
#include <stddef.h>
#include <stdint.h>
#include <mpi.h>

/* Silence HDF5's own error printing: failures are reported once, by the check below. */
void h5_quiet(void);

/* The current HDF5 error stack in one line (outermost and innermost causes). */
void h5_error_summary(char *out, size_t n);

/* A negative HDF5 result ends the job (exit 1, MPI_Abort) naming the call, the file and
 * the HDF5 error stack. Used where every rank takes part, so no rank is left waiting. */
int64_t h5_check_at(int64_t rc, const char *call, const char *path, int status, const char *file, int line);
#define H5_CHECK(call, path) h5_check_at((int64_t)(call), #call, (path), 1, __FILE__, __LINE__)
/* The same when reading a dump given as input: a failure is bad input (exit 2). */
#define H5_CHECK_INPUT(call, path) h5_check_at((int64_t)(call), #call, (path), 2, __FILE__, __LINE__)

/* Scalar and string attributes on an object (collective in a parallel file). */
void h5_attr_double(hid_t obj, const char *name, double v, const char *path);
/* A one-dimensional attribute of n doubles. */
void h5_attr_doubles(hid_t obj, const char *name, int n, const double *v, const char *path);
void h5_attr_i64(hid_t obj, const char *name, int64_t v, const char *path);
/* A one-dimensional attribute of n 64-bit integers. */
void h5_attr_i64s(hid_t obj, const char *name, int n, const int64_t *v, const char *path);
void h5_attr_i32(hid_t obj, const char *name, int32_t v, const char *path);
void h5_attr_string(hid_t obj, const char *name, const char *v, const char *path);
void h5_attr_u32(hid_t obj, const char *name, uint32_t v, const char *path);

/* Collective: the CRC-32 of a dataset's bytes from each rank's part (offset and length in bytes
 * in the dataset, CRC of those bytes). The parts must tile the dataset; empty parts are fine. */
uint32_t h5_crc_of_parts(MPI_Comm comm, uint64_t offset, uint64_t nbytes, uint32_t crc);

/* Reading attributes back, for validation: 0 on success, -1 when absent or of another kind. */
int h5_read_attr_double(hid_t obj, const char *name, double *v);
/* A one-dimensional attribute of doubles: how many (at most max, into v), or -1. */
int h5_read_attr_doubles(hid_t obj, const char *name, int max, double *v);
int h5_read_attr_i64(hid_t obj, const char *name, int64_t *v);
/* A one-dimensional attribute of integers read as int64: how many (at most max, into v), or -1. */
int h5_read_attr_i64s(hid_t obj, const char *name, int max, int64_t *v);
/* malloc'd string, NULL when absent or not a string */
char *h5_read_attr_string(hid_t obj, const char *name);

#endif
