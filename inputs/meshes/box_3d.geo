// Structured 4 x 3 x 2 hexes on [0,1] x [0,0.75] x [0,0.5]: the generator's box (tests compare the two).
// Physical tags follow the generator: 1 xmin, 2 xmax, 3 ymin, 4 ymax, 5 zmin, 6 zmax.
SetFactory("Built-in");
Point(1) = {0, 0, 0};
Point(2) = {1, 0, 0};
Point(3) = {1, 0.75, 0};
Point(4) = {0, 0.75, 0};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
Transfinite Curve{1, 3} = 5;
Transfinite Curve{2, 4} = 4;
Transfinite Surface{1};
Recombine Surface{1};
out[] = Extrude {0, 0, 0.5} { Surface{1}; Layers{2}; Recombine; };
// out[0] top, out[1] volume, out[2..5] the sides from lines 1..4
Physical Surface("xmin", 1) = {out[5]};
Physical Surface("xmax", 2) = {out[3]};
Physical Surface("ymin", 3) = {out[2]};
Physical Surface("ymax", 4) = {out[4]};
Physical Surface("zmin", 5) = {1};
Physical Surface("zmax", 6) = {out[0]};
Physical Volume("fluid", 10) = {out[1]};
