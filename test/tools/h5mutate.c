/* Test tool: damage a copy of a dump in one named way, to check that restart refuses it.
 * usage: h5mutate FILE drop-dataset PATH | drop-root-attr NAME | resize-dataset PATH */
#include <hdf5.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s FILE drop-dataset PATH | drop-root-attr NAME | resize-dataset PATH\n", argv[0]);
        return 2;
    }
    hid_t f = H5Fopen(argv[1], H5F_ACC_RDWR, H5P_DEFAULT);
    if (f < 0)
        return 1;
    herr_t rc = -1;
    if (!strcmp(argv[2], "drop-dataset")) {
        rc = H5Ldelete(f, argv[3], H5P_DEFAULT);
    } else if (!strcmp(argv[2], "drop-root-attr")) {
        rc = H5Adelete(f, argv[3]);
    } else if (!strcmp(argv[2], "resize-dataset")) { /* same name, one row fewer */
        hid_t d = H5Dopen2(f, argv[3], H5P_DEFAULT);
        hid_t s = H5Dget_space(d), t = H5Dget_type(d);
        hsize_t dims[2];
        int rank = H5Sget_simple_extent_dims(s, dims, NULL);
        dims[0] -= 1;
        H5Dclose(d);
        H5Ldelete(f, argv[3], H5P_DEFAULT);
        hid_t s2 = H5Screate_simple(rank, dims, NULL);
        hid_t d2 = H5Dcreate2(f, argv[3], t, s2, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        rc = d2 < 0 ? -1 : 0;
        H5Dclose(d2);
        H5Sclose(s2);
        H5Sclose(s);
        H5Tclose(t);
    }
    H5Fclose(f);
    return rc < 0 ? 1 : 0;
}
