// Structured 6 x 4 quads on [0,1.5] x [0,1]: the generator's box (tests compare the two).
// Physical tags follow the generator: 1 xmin, 2 xmax, 3 ymin, 4 ymax.
Point(1) = {0, 0, 0};
Point(2) = {1.5, 0, 0};
Point(3) = {1.5, 1, 0};
Point(4) = {0, 1, 0};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
Transfinite Curve{1, 3} = 7;
Transfinite Curve{2, 4} = 5;
Transfinite Surface{1};
Recombine Surface{1};
Physical Curve("xmin", 1) = {4};
Physical Curve("xmax", 2) = {2};
Physical Curve("ymin", 3) = {1};
Physical Curve("ymax", 4) = {3};
Physical Surface("fluid", 10) = {1};
