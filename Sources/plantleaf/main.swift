import Glibc
import PlantLeafCommandLine

exit(PlantLeafCommand.main())
