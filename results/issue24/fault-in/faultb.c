#include "uamode.h"
#include <sys/mman.h>
#include <time.h>
#define NP 64
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e9+t.tv_nsec;}
static double run(int fd,int fresh,int iters){
	double tot=0;
	for(int it=0;it<iters;it++){
		char *b=mmap(0,NP*4096,PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS,-1,0);
		if(b==MAP_FAILED)exit(1);
		if(fresh!=1)memset(b,1,NP*4096);
		if(fresh==2)for(int i=0;i<NP;i++) pread(fd,b+i*4096,4096,0);
		double t0=now();
		for(int i=0;i<NP;i++) if(pread(fd,b+i*4096,4096,0)!=4096)exit(2);
		tot+=now()-t0;
		munmap(b,NP*4096);
	}
	return tot/iters/NP;
}
int main(int c,char**v){
	int fd=open("/tmp/f",O_RDWR|O_CREAT,0600);static char z[4096];
	write(fd,z,4096);
	const char*m[]={"direct","pinned"};
	double r[2][3]={{0}};
	for(int rep=0;rep<5;rep++)for(int k=0;k<2;k++){
		if(set_mode(m[k])){printf("mode %s fail\n",m[k]);return 1;}
		r[k][0]+=run(fd,0,50);r[k][1]+=run(fd,1,50);r[k][2]+=run(fd,2,50);
	}
	for(int k=0;k<2;k++)printf("%s: warm %.0f miss %.0f fresh %.0f\n",m[k],r[k][2]/5,r[k][0]/5,r[k][1]/5);
	return 0;
}
