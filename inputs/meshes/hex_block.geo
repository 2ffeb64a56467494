// Unstructured hex block [0,1] x [0,0.5] x [0,0.5]: an unstructured quad section extruded in 6 layers.
// Physical tags as the generator's box: 1 xmin, 2 xmax, 3 ymin, 4 ymax, 5 zmin, 6 zmax.
Mesh.Algorithm = 6;
Mesh.RecombineAll = 1;
Mesh.RecombinationAlgorithm = 1;
Mesh.SubdivisionAlgorithm = 1;
Mesh.CharacteristicLengthMin = 0.08;
Mesh.CharacteristicLengthMax = 0.08;
Point(1) = {0, 0, 0};
Point(2) = {1, 0, 0};
Point(3) = {1, 0.5, 0};
Point(4) = {0, 0.5, 0};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
out[] = Extrude {0, 0, 0.5} { Surface{1}; Layers{6}; Recombine; };
Physical Surface("xmin", 1) = {out[5]};
Physical Surface("xmax", 2) = {out[3]};
Physical Surface("ymin", 3) = {out[2]};
Physical Surface("ymax", 4) = {out[4]};
Physical Surface("zmin", 5) = {1};
Physical Surface("zmax", 6) = {out[0]};
Physical Volume("fluid", 10) = {out[1]};
