// Quarter disc of radius 1 in unstructured quads, for 2D blast problems centred at the origin.
// Physical tags: 1 axis_x (y = 0), 2 axis_y (x = 0), 3 arc (outer boundary).
Mesh.Algorithm = 6;          // Frontal-Delaunay (the quad algorithm 8 crashes in Debian's gmsh)
Mesh.RecombineAll = 1;
Mesh.RecombinationAlgorithm = 1;
Mesh.SubdivisionAlgorithm = 1; // all quads
Mesh.CharacteristicLengthMin = 0.05;
Mesh.CharacteristicLengthMax = 0.05;
Point(1) = {0, 0, 0};
Point(2) = {1, 0, 0};
Point(3) = {0, 1, 0};
Line(1) = {1, 2};
Circle(2) = {2, 1, 3};
Line(3) = {3, 1};
Curve Loop(1) = {1, 2, 3};
Plane Surface(1) = {1};
Physical Curve("axis_x", 1) = {1};
Physical Curve("arc", 3) = {2};
Physical Curve("axis_y", 2) = {3};
Physical Surface("fluid", 10) = {1};
